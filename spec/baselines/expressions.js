import * as ag__ from "autograph-ts/runtime";
import * as tf from '@tensorflow/tfjs';
export function clipAndFlags(x, y) {
    const clipped = ag__.ifExp(x.greater(1), () => tf.scalar(1), () => x, { origin: "expressions.ts:4:19" });
    const both = ag__.and(() => x.greater(0), () => y.greater(0), { origin: "expressions.ts:5:16" });
    const either = ag__.or(() => x.greater(0), () => y.greater(0), { origin: "expressions.ts:6:18" });
    return [clipped, both, either, tf.scalar(0).add(ag__.ifExp(ag__.not(x.greater(0)), () => 1, () => 0, { origin: "expressions.ts:7:51" }))];
}
