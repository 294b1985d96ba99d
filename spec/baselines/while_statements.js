import * as ag__ from "autograph-ts/runtime";
import * as tf from '@tensorflow/tfjs';
export function halveUntilSmall(x) {
    let steps = tf.scalar(0);
    const loop_test = () => x.greater(1);
    const loop_body = () => {
        x = x.div(2);
        steps = steps.add(1);
    };
    ag__.whileStmt(loop_test, loop_body, () => [x, steps], vars_ => { [x, steps] = vars_; }, ["x", "steps"], { origin: "while_statements.ts:5:3" });
    const loop_test_1 = () => x.less(10);
    const loop_body_1 = () => {
        x = x.mul(3);
    };
    ag__.doWhileStmt(loop_test_1, loop_body_1, () => [x], vars__1 => { [x] = vars__1; }, ["x"], { origin: "while_statements.ts:9:3" });
    return steps.add(x);
}
