/**
 * tfjs draws random numbers in JS (randomUniform & co. fill a buffer; they are not kernels), so a
 * kernel-level trace would see their result as a constant. While tracing, the public random ops
 * are wrapped: the draw is recorded as a Random node with the op's arguments, and the executor
 * calls the original op again on every run. An absent seed stays absent, so each run draws anew;
 * a seed the user passed is kept, so the draws repeat exactly as they do eagerly.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { RandomArg, RandomOp } from '../graph/graph';
import { nodeRequire } from '../common/node_host';

type OpFn = (...args: unknown[]) => tf.Tensor;

/**
 * The tfjs-core module object. In its CommonJS build, tf.*, tfjs-layers and tfjs read ops through
 * it at call time, so its plain properties can be wrapped while a trace runs; an ES module
 * namespace (or a bundle's getter-only exports) is only read (trace_patches.ts checks). Reached
 * through Node's require (node_host.ts) so that no bundler follows it; in a bundle, the namespace.
 */
export const coreModule = (nodeRequire()?.('@tensorflow/tfjs-core') ?? tf) as Readonly<Record<string, unknown>>;

export const RANDOM_OPS: readonly RandomOp[] = ['randomUniform', 'randomNormal', 'truncatedNormal',
  'randomStandardNormal', 'randomGamma', 'randomUniformInt', 'multinomial', 'dropout'];

/** The unwrapped ops, captured before any trace patches the module. */
const originals = new Map<RandomOp, OpFn>(RANDOM_OPS.map((op) => [op, coreModule[op] as OpFn]));

export function originalRandomOp(op: RandomOp): OpFn {
  return originals.get(op)!;
}

/** Re-draws: `inputs` are the tensors referenced by `{input: i}` arguments. */
export function callRandomOp(op: RandomOp, args: RandomArg[], inputs: tf.Tensor[]): tf.Tensor {
  const values = args.map((a) => ('input' in a ? inputs[a.input] : a.value));
  return originals.get(op)!(...values);
}
