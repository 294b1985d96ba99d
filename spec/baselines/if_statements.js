import * as ag__ from "autograph-ts/runtime";
import * as tf from '@tensorflow/tfjs';
export function relu(x) {
    let y;
    const if_body = () => {
        y = x;
    };
    const else_body = () => {
        const if_body_1 = () => {
            y = tf.scalar(0);
        };
        const else_body_1 = () => {
            y = x.mul(0.01);
        };
        ag__.ifStmt(x.equal(0), if_body_1, else_body_1, () => [y], vars_ => { [y] = vars_; }, ["y"], 1, { origin: "if_statements.ts:7:10" });
    };
    ag__.ifStmt(x.greater(0), if_body, else_body, () => [y], vars__1 => { [y] = vars__1; }, ["y"], 1, { origin: "if_statements.ts:5:3" });
    return y;
}
