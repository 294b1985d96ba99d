import * as ag__ from "autograph-ts/runtime";
import * as tf from '@tensorflow/tfjs';
export function decode(tok, next, maxLen) {
    const tokens = ag__.newList([tok], { origin: "lists.ts:4:9", name: "tokens" });
    const counts = ag__.newList([], { origin: "lists.ts:5:9", name: "counts", scalars: true });
    {
        let t = tf.scalar(0, 'int32');
        const loop_test = () => t.less(maxLen);
        const loop_body = () => {
            tok = next.gather(tok);
            tokens.push(tok);
            counts.push(1);
            t = t.add(tf.scalar(1, 'int32'));
        };
        ag__.whileStmt(loop_test, loop_body, () => [tok, t], vars_ => { [tok, t] = vars_; }, ["tok", "t"], { origin: "lists.ts:6:3", composites: () => ({ tokens, counts }) });
    }
    let total = tf.scalar(0, 'int32');
    const loop_body_1 = x => {
        total = total.add(x.sum());
    };
    ag__.forStmt(tokens, undefined, loop_body_1, () => [total], vars__1 => { [total] = vars__1; }, ["total"], { origin: "lists.ts:12:3" });
    return tf.stack(tokens).sum().add(total);
}
