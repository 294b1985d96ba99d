/**
 * Newton's method for L2-regularized logistic regression, as a numeric algorithm is written:
 * three data-dependent loops on tensor conditions — Newton steps until the gradient is small,
 * conjugate-gradient iterations for each step until the residual is small, and a backtracking
 * line search until the Armijo condition holds. Eagerly every condition is read by value; staged,
 * the whole solver is one graph with three nested While nodes.
 */
import * as tf from '@tensorflow/tfjs';

/** Mean logistic loss of labels y ∈ {-1, 1} plus (λ/2)‖w‖². */
export function loss(w: tf.Tensor1D, x: tf.Tensor2D, y: tf.Tensor1D, lambda: number): tf.Scalar {
  const margins = x.matMul(w.expandDims(1)).squeeze([1]).mul(y);
  return tf.softplus(margins.neg()).mean().add(w.square().sum().mul(lambda / 2));
}

export function gradient(w: tf.Tensor1D, x: tf.Tensor2D, y: tf.Tensor1D, lambda: number): tf.Tensor1D {
  const margins = x.matMul(w.expandDims(1)).squeeze([1]).mul(y);
  const weights = tf.sigmoid(margins.neg()).mul(y).neg();
  return x.matMul(weights.expandDims(1), true).squeeze([1]).div(x.shape[0]).add(w.mul(lambda));
}

/** The Hessian of the loss at w times v, without forming the Hessian. */
export function hessianTimes(w: tf.Tensor1D, x: tf.Tensor2D, lambda: number, v: tf.Tensor1D): tf.Tensor1D {
  const p = tf.sigmoid(x.matMul(w.expandDims(1)).squeeze([1]));
  const curvature = p.mul(tf.scalar(1).sub(p));
  const xv = x.matMul(v.expandDims(1)).squeeze([1]);
  return x.matMul(curvature.mul(xv).expandDims(1), true).squeeze([1]).div(x.shape[0]).add(v.mul(lambda));
}

export interface Solution {
  w: tf.Tensor1D;
  loss: tf.Scalar;
  newtonSteps: tf.Scalar;
  cgSteps: tf.Scalar;
}

export function newtonCG(x: tf.Tensor2D, y: tf.Tensor1D, lambda: number, tolerance: number,
                         maxSteps: number): Solution {
  'use autograph';
  let w: tf.Tensor1D = tf.zeros([x.shape[1]]);
  let g = gradient(w, x, y, lambda);
  let newtonSteps: tf.Scalar = tf.scalar(0);
  let cgSteps: tf.Scalar = tf.scalar(0);
  while (g.norm().greater(tolerance) && newtonSteps.less(maxSteps)) {
    // Conjugate gradients for H p = -g, to a relative residual of 0.1 (inexact Newton).
    let p: tf.Tensor1D = tf.zerosLike(w);
    let r: tf.Tensor1D = g.neg();
    let d: tf.Tensor1D = r;
    let rr: tf.Scalar = r.dot(r) as tf.Scalar;
    let k: tf.Scalar = tf.scalar(0);
    while (rr.sqrt().greater(g.norm().mul(0.1)) && k.less(x.shape[1])) {
      const hd = hessianTimes(w, x, lambda, d);
      const alpha = rr.div(d.dot(hd));
      p = p.add(d.mul(alpha));
      r = r.sub(hd.mul(alpha));
      const rrNext = r.dot(r) as tf.Scalar;
      d = r.add(d.mul(rrNext.div(rr)));
      rr = rrNext;
      k = k.add(1);
    }
    cgSteps = cgSteps.add(k);

    // Backtracking line search: halve the step until the loss decreases enough (Armijo).
    const f0 = loss(w, x, y, lambda);
    const slope = g.dot(p);
    let t: tf.Scalar = tf.scalar(1);
    while (loss(w.add(p.mul(t)), x, y, lambda).greater(f0.add(slope.mul(t).mul(1e-4)))) {
      t = t.mul(0.5);
    }
    w = w.add(p.mul(t));
    g = gradient(w, x, y, lambda);
    newtonSteps = newtonSteps.add(1);
  }
  return { w, loss: loss(w, x, y, lambda), newtonSteps, cgSteps };
}

/** Linearly separable-ish data from a fixed seed: a known direction plus noise. */
export function syntheticProblem(samples: number, features: number, seed = 7): { x: tf.Tensor2D; y: tf.Tensor1D } {
  return tf.tidy(() => {
    const x = tf.randomNormal([samples, features], 0, 1, 'float32', seed) as tf.Tensor2D;
    const direction = tf.randomNormal([features, 1], 0, 1, 'float32', seed + 1);
    const noise = tf.randomNormal([samples, 1], 0, 0.5, 'float32', seed + 2);
    const y = x.matMul(direction).add(noise).sign().squeeze([1]) as tf.Tensor1D;
    return { x, y: y.where(y.notEqual(0), tf.onesLike(y)) as tf.Tensor1D };
  });
}
