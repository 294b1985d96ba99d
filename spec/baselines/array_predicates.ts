import * as tf from '@tensorflow/tfjs';
function withinRadius(poses: tf.Tensor1D[], point: tf.Tensor1D, r: number): boolean {
  return poses.some((p) => p.sub(point).square().sum().lessEqual(r));
}
export function decode(candidates: tf.Tensor1D[], r: number): tf.Tensor1D[] {
  'use autograph';
  const poses: tf.Tensor1D[] = [];
  for (const c of candidates) {
    if (withinRadius(poses, c, r)) continue;
    poses.push(c);
  }
  return poses;
}
export function forms(xs: tf.Scalar[], flags: boolean[], f: (x: tf.Scalar) => any): [boolean, number, number, boolean] {
  'use autograph';
  const all = xs.every((x) => x.greater(0), undefined);
  const first = xs.findIndex(f);
  const kept = xs.filter((x) => x.less(3)).length;
  return [all && !flags.some((b) => b), first, kept, xs.some((x) => x.equal(1))];
}
