/**
 * `for (const row of t)` over a Tensor iterates its first dimension. The type augmentation lets it
 * type-check; the prototype method gives unconverted code the same eager behaviour that the
 * converted for...of (ag__.forStmt) has.
 */
import * as tf from '@tensorflow/tfjs-core';

declare module '@tensorflow/tfjs-core/dist/tensor' {
  interface Tensor {
    [Symbol.iterator](): Iterator<Tensor>;
  }
}

const proto = tf.Tensor.prototype as unknown as { [Symbol.iterator]?: () => Iterator<tf.Tensor> };
if (proto[Symbol.iterator] === undefined) {
  Object.defineProperty(proto, Symbol.iterator, {
    configurable: true,
    writable: true,
    value: function* rows(this: tf.Tensor): Iterator<tf.Tensor> {
      if (this.rank === 0) throw new TypeError('autograph-ts: cannot iterate over a scalar tensor');
      yield* tf.unstack(this);
    },
  });
}
