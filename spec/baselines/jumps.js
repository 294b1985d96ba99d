import * as ag__ from "autograph-ts/runtime";
import * as tf from '@tensorflow/tfjs';
export function firstNegative(xs) {
    let index = tf.scalar(-1);
    let i = tf.scalar(0);
    let break_ = false;
    let continue_ = false;
    const loop_test = () => ag__.and(() => ag__.not(break_), () => i.less(xs.size), { origin: "jumps.ts:6:17" });
    const loop_body = () => {
        continue_ = false;
        const x = xs.gather(i.cast('int32'));
        i = i.add(1);
        const if_body = () => {
            continue_ = true;
        };
        ag__.ifStmt(x.equal(0), if_body, undefined, () => [continue_], vars_ => { [continue_] = vars_; }, ["continue_"], 1, { origin: "jumps.ts:9:5", flags: ["continue_"] });
        const if_body_1 = () => {
            const if_body_2 = () => {
                index = i.sub(1);
                break_ = true;
            };
            ag__.ifStmt(x.less(0), if_body_2, undefined, () => [index, break_], vars__1 => { [index, break_] = vars__1; }, ["index", "break_"], 2, { origin: "jumps.ts:10:5", flags: ["break_"] });
        };
        ag__.ifStmt(ag__.not(continue_), if_body_1, undefined, () => [index, break_], vars__2 => { [index, break_] = vars__2; }, ["index", "break_"], 2, { origin: "jumps.ts:10:5", flags: ["break_"], jump: { kind: "continue", origin: "jumps.ts:9:9" } });
    };
    ag__.whileStmt(loop_test, loop_body, () => [continue_, i, index, break_], vars__3 => { [continue_, i, index, break_] = vars__3; }, ["continue_", "i", "index", "break_"], { origin: "jumps.ts:6:10", flags: ["continue_", "break_"] });
    return index;
}
export function sign(x) {
    let do_return = false;
    let retval_ = ag__.UndefinedReturnValue.instance;
    const if_body_3 = () => {
        retval_ = 1;
        do_return = true;
    };
    ag__.ifStmt(x.greater(0), if_body_3, undefined, () => [retval_, do_return], vars__4 => { [retval_, do_return] = vars__4; }, ["retval_", "do_return"], 2, { origin: "jumps.ts:19:3", flags: ["retval_", "do_return"] });
    const if_body_4 = () => {
        const if_body_5 = () => {
            retval_ = -1;
            do_return = true;
        };
        ag__.ifStmt(x.less(0), if_body_5, undefined, () => [retval_, do_return], vars__5 => { [retval_, do_return] = vars__5; }, ["retval_", "do_return"], 2, { origin: "jumps.ts:20:3", flags: ["retval_", "do_return"] });
        const if_body_6 = () => {
            retval_ = 0;
            do_return = true;
        };
        ag__.ifStmt(ag__.not(do_return), if_body_6, undefined, () => [retval_, do_return], vars__6 => { [retval_, do_return] = vars__6; }, ["retval_", "do_return"], 2, { origin: "jumps.ts:21:3", flags: ["retval_", "do_return"], jump: { kind: "return", origin: "jumps.ts:20:7" } });
    };
    ag__.ifStmt(ag__.not(do_return), if_body_4, undefined, () => [retval_, do_return], vars__7 => { [retval_, do_return] = vars__7; }, ["retval_", "do_return"], 2, { origin: "jumps.ts:20:3", flags: ["retval_", "do_return"], jump: { kind: "return", origin: "jumps.ts:19:7" } });
    return ag__.retval(retval_);
}
