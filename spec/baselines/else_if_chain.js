import * as ag__ from "autograph-ts/runtime";
import * as tf from '@tensorflow/tfjs';
// An else-if chain longer than LONG_CHAIN (16) branches is emitted flat: one ag__.ifStmt per
// branch after a branch_taken flag, instead of 17 nested closures.
export function lookup(x) {
    let y = tf.scalar(-1);
    let branch_taken = false;
    const if_body = () => {
        branch_taken = true;
        y = tf.scalar(0);
    };
    ag__.ifStmt(x.equal(0), if_body, undefined, () => [y, branch_taken], vars_ => { [y, branch_taken] = vars_; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:8:3", flags: ["branch_taken"] });
    const if_body_1 = () => {
        branch_taken = true;
        y = tf.scalar(10);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(1), { origin: "else_if_chain.ts:10:10" }), if_body_1, undefined, () => [y, branch_taken], vars__1 => { [y, branch_taken] = vars__1; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:10:10", flags: ["branch_taken"] });
    const if_body_2 = () => {
        branch_taken = true;
        y = tf.scalar(20);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(2), { origin: "else_if_chain.ts:12:10" }), if_body_2, undefined, () => [y, branch_taken], vars__2 => { [y, branch_taken] = vars__2; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:12:10", flags: ["branch_taken"] });
    const if_body_3 = () => {
        branch_taken = true;
        y = tf.scalar(30);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(3), { origin: "else_if_chain.ts:14:10" }), if_body_3, undefined, () => [y, branch_taken], vars__3 => { [y, branch_taken] = vars__3; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:14:10", flags: ["branch_taken"] });
    const if_body_4 = () => {
        branch_taken = true;
        y = tf.scalar(40);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(4), { origin: "else_if_chain.ts:16:10" }), if_body_4, undefined, () => [y, branch_taken], vars__4 => { [y, branch_taken] = vars__4; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:16:10", flags: ["branch_taken"] });
    const if_body_5 = () => {
        branch_taken = true;
        y = tf.scalar(50);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(5), { origin: "else_if_chain.ts:18:10" }), if_body_5, undefined, () => [y, branch_taken], vars__5 => { [y, branch_taken] = vars__5; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:18:10", flags: ["branch_taken"] });
    const if_body_6 = () => {
        branch_taken = true;
        y = tf.scalar(60);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(6), { origin: "else_if_chain.ts:20:10" }), if_body_6, undefined, () => [y, branch_taken], vars__6 => { [y, branch_taken] = vars__6; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:20:10", flags: ["branch_taken"] });
    const if_body_7 = () => {
        branch_taken = true;
        y = tf.scalar(70);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(7), { origin: "else_if_chain.ts:22:10" }), if_body_7, undefined, () => [y, branch_taken], vars__7 => { [y, branch_taken] = vars__7; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:22:10", flags: ["branch_taken"] });
    const if_body_8 = () => {
        branch_taken = true;
        y = tf.scalar(80);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(8), { origin: "else_if_chain.ts:24:10" }), if_body_8, undefined, () => [y, branch_taken], vars__8 => { [y, branch_taken] = vars__8; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:24:10", flags: ["branch_taken"] });
    const if_body_9 = () => {
        branch_taken = true;
        y = tf.scalar(90);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(9), { origin: "else_if_chain.ts:26:10" }), if_body_9, undefined, () => [y, branch_taken], vars__9 => { [y, branch_taken] = vars__9; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:26:10", flags: ["branch_taken"] });
    const if_body_10 = () => {
        branch_taken = true;
        y = tf.scalar(100);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(10), { origin: "else_if_chain.ts:28:10" }), if_body_10, undefined, () => [y, branch_taken], vars__10 => { [y, branch_taken] = vars__10; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:28:10", flags: ["branch_taken"] });
    const if_body_11 = () => {
        branch_taken = true;
        y = tf.scalar(110);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(11), { origin: "else_if_chain.ts:30:10" }), if_body_11, undefined, () => [y, branch_taken], vars__11 => { [y, branch_taken] = vars__11; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:30:10", flags: ["branch_taken"] });
    const if_body_12 = () => {
        branch_taken = true;
        y = tf.scalar(120);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(12), { origin: "else_if_chain.ts:32:10" }), if_body_12, undefined, () => [y, branch_taken], vars__12 => { [y, branch_taken] = vars__12; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:32:10", flags: ["branch_taken"] });
    const if_body_13 = () => {
        branch_taken = true;
        y = tf.scalar(130);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(13), { origin: "else_if_chain.ts:34:10" }), if_body_13, undefined, () => [y, branch_taken], vars__13 => { [y, branch_taken] = vars__13; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:34:10", flags: ["branch_taken"] });
    const if_body_14 = () => {
        branch_taken = true;
        y = tf.scalar(140);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(14), { origin: "else_if_chain.ts:36:10" }), if_body_14, undefined, () => [y, branch_taken], vars__14 => { [y, branch_taken] = vars__14; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:36:10", flags: ["branch_taken"] });
    const if_body_15 = () => {
        branch_taken = true;
        y = tf.scalar(150);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(15), { origin: "else_if_chain.ts:38:10" }), if_body_15, undefined, () => [y, branch_taken], vars__15 => { [y, branch_taken] = vars__15; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:38:10", flags: ["branch_taken"] });
    const if_body_16 = () => {
        branch_taken = true;
        y = tf.scalar(160);
    };
    ag__.ifStmt(ag__.and(() => ag__.not(branch_taken), () => x.equal(16), { origin: "else_if_chain.ts:40:10" }), if_body_16, undefined, () => [y, branch_taken], vars__16 => { [y, branch_taken] = vars__16; }, ["y", "branch_taken"], 2, { origin: "else_if_chain.ts:40:10", flags: ["branch_taken"] });
    const else_body = () => {
        y = tf.scalar(-2);
    };
    ag__.ifStmt(ag__.not(branch_taken), else_body, undefined, () => [y], vars__17 => { [y] = vars__17; }, ["y"], 1, { origin: "else_if_chain.ts:42:10" });
    return y;
}
