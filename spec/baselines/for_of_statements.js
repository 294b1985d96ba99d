import * as ag__ from "autograph-ts/runtime";
import * as tf from '@tensorflow/tfjs';
import { range } from 'autograph-ts';
export function rnn(inputs, w, u) {
    let h = tf.zeros([inputs.shape[1], w.shape[1]]);
    const loop_body = x => {
        h = tf.tanh(tf.add(tf.matMul(x, w), tf.matMul(h, u)));
    };
    ag__.forStmt(inputs, undefined, loop_body, () => [h], vars_ => { [h] = vars_; }, ["h"], { origin: "for_of_statements.ts:6:3" });
    return h;
}
export function powers(n) {
    let acc = tf.scalar(1);
    const loop_body_1 = i => {
        acc = acc.mul(2).add(i);
    };
    ag__.forStmt(range(n), undefined, loop_body_1, () => [acc], vars__1 => { [acc] = vars__1; }, ["acc"], { origin: "for_of_statements.ts:14:3" });
    return acc;
}
export function keys(o, limit) {
    const out = [];
    let break_ = false;
    const loop_body_2 = k => {
        const if_body = () => {
            break_ = true;
        };
        ag__.ifStmt(o[k].greater(limit), if_body, undefined, () => [break_], vars__2 => { [break_] = vars__2; }, ["break_"], 1, { origin: "for_of_statements.ts:21:5", flags: ["break_"] });
        const if_body_1 = () => {
            out.push(k);
        };
        ag__.ifStmt(ag__.not(break_), if_body_1, undefined, () => [], () => { }, [], 0, { origin: "for_of_statements.ts:22:5", composites: () => ({ out }), jump: { kind: "break", origin: "for_of_statements.ts:21:9" } });
    };
    ag__.forInStmt(o, () => ag__.not(break_), loop_body_2, () => [break_], vars__3 => { [break_] = vars__3; }, ["break_"], { origin: "for_of_statements.ts:20:3", flags: ["break_"], composites: () => ({ out }) });
    return out;
}
