import * as ag__ from "autograph-ts/runtime";
import * as tf from '@tensorflow/tfjs';
// A break out of the switch under a tensor condition: lowered to an if chain with a break flag.
export function clampByMode(mode, x) {
    let y = x;
    let break_ = false;
    {
        const switch_value = mode;
        const case_index = switch_value === 'relu' ? 0 : switch_value === 'identity' ? 1 : 2;
        if (case_index <= 0) {
            const if_body = () => {
                y = tf.scalar(0);
                break_ = true;
            };
            ag__.ifStmt(x.less(0), if_body, undefined, () => [y, break_], vars_ => { [y, break_] = vars_; }, ["y", "break_"], 2, { origin: "switch_statements.ts:9:7", flags: ["break_"] });
        }
        const if_body_1 = () => {
            if (case_index <= 1) {
                y = y.mul(1);
                break_ = true;
            }
            const if_body_2 = () => {
                if (case_index <= 2) {
                    y = y.neg();
                }
            };
            ag__.ifStmt(ag__.not(break_), if_body_2, undefined, () => [y], vars__1 => { [y] = vars__1; }, ["y"], 1, { origin: "switch_statements.ts:13:5", jump: { kind: "break", origin: "switch_statements.ts:12:7" } });
        };
        ag__.ifStmt(ag__.not(break_), if_body_1, undefined, () => [y, break_], vars__2 => { [y, break_] = vars__2; }, ["y", "break_"], 2, { origin: "switch_statements.ts:10:5", flags: ["break_"], jump: { kind: "break", origin: "switch_statements.ts:9:11" } });
    }
    return y;
}
// Nothing converted inside: the switch stays native.
export function scaleByMode(mode, x) {
    let scale = 1;
    switch (mode) {
        case 'double':
            scale = 2;
            break;
        case 'half':
            scale = 0.5;
            break;
    }
    const if_body_3 = () => {
        x = x.mul(scale);
    };
    ag__.ifStmt(x.greater(0), if_body_3, undefined, () => [x], vars__3 => { [x] = vars__3; }, ["x"], 1, { origin: "switch_statements.ts:27:3" });
    return x;
}
