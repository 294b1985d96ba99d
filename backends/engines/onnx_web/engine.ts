/**
 * The ONNX web engine: a staged Program lowered to ONNX (onnx_model/, as for the ONNX engine) and
 * run by onnxruntime-web (wasm; WebGPU where the page has an adapter). Its sessions run only
 * asynchronously: `staged.run(...)` runs there, while a synchronous `staged(...)` runs the tfjs
 * executor under 'auto' (and is an error under `engine: 'onnx-web'`).
 *
 * Under 'auto' it is the page's engine: in Node, onnxruntime-node (the 'onnx' engine) comes first
 * and this one declines, so that Node programs keep the engine they were measured on.
 */
import type { Engine } from '../engine';
import { declinesAutoLike, loopLimitRefusal } from '../onnx/engine';
import { prepareOrt } from '../onnx/runner';
import { openWebSession } from './runtime';

const inNode = (): boolean => typeof process !== 'undefined' && typeof process.versions?.node === 'string';

export const onnxWebEngine: Engine<'onnx-web'> = {
  name: 'onnx-web',
  declinesAuto: (program) => {
    if (inNode()) return "engine 'auto' in Node uses onnxruntime-node ('onnx'); onnxruntime-web runs under engine: 'onnx-web'";
    return declinesAutoLike(program);
  },
  prepare: (program, context) => {
    const limited = loopLimitRefusal(program);
    if (limited !== undefined) return { refused: limited };
    return prepareOrt(program, { open: openWebSession }, context.names, context.onnx);
  },
};
