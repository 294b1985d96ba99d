import * as ag__ from "autograph-ts/runtime";
import * as tf from '@tensorflow/tfjs';
export function countDown(n) {
    const seen = ag__.newList([], { origin: "for_statements.ts:4:9", name: "seen", scalars: true });
    {
        let i = n;
        const loop_test = () => i.greater(0);
        const loop_body = () => {
            seen.push(i.arraySync());
            i = i.sub(1);
        };
        ag__.whileStmt(loop_test, loop_body, () => [i], vars_ => { [i] = vars_; }, ["i"], { origin: "for_statements.ts:5:3", composites: () => ({ seen }) });
    }
    return seen;
}
export function closures(n) {
    const fns = [];
    {
        let i = tf.scalar(0);
        let i_outer = i;
        const loop_test_1 = () => i_outer.less(n);
        const loop_body_1 = () => {
            let i = i_outer;
            fns.push(() => i);
            i_outer = i;
            i_outer = i_outer.add(1);
        };
        ag__.whileStmt(loop_test_1, loop_body_1, () => [i_outer], vars__1 => { [i_outer] = vars__1; }, ["i"], { origin: "for_statements.ts:13:3", composites: () => ({ fns }) });
    }
    return fns;
}
