/**
 * Runs a compiled Program.
 *
 * Direct mode (the normal case) calls each kernel function on the active backend, as the engine
 * would but without its bookkeeping (scopes, tensor objects, profiling): values are TensorInfos
 * counted by the backend's reference counts, released right after their last use. Only the
 * results become tf.Tensors.
 *
 * Engine mode is used when a gradient tape is recording (a staged function called inside
 * tf.grad / tf.variableGrads / optimizer.minimize): every kernel goes through
 * tf.engine().runKernel so autodiff sees it, and If/While run the taken path kernel by kernel.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Program } from './graph';
import type { Plan, Step } from './plan';
import { compile } from './plan';
import { callRandomOp } from './random_ops';
import { formatPrint, rebuildError } from './host_callbacks';

type Value = tf.TensorInfo;

/** Read once: tf.* goes through a module getter on every access (hot path). */
const Tensor = tf.Tensor;

interface EngineInternals {
  runKernel(name: string, inputs: unknown, attrs: unknown): tf.Tensor | tf.Tensor[];
  isTapeOn(): boolean;
  makeTensorFromTensorInfo(info: tf.TensorInfo, backend?: tf.KernelBackend): tf.Tensor;
  disposeTensor(t: tf.Tensor): void;
  incRef(t: tf.Tensor, backend: tf.KernelBackend | null): void;
}

const engine = (): EngineInternals => tf.engine() as unknown as EngineInternals;

/** Compiled plans per backend name ('' = engine mode), cached on the program. */
const plans = new WeakMap<Program, Map<string, Plan>>();

export function planFor(program: Program, backendName: string | undefined): Plan {
  let byBackend = plans.get(program);
  if (byBackend === undefined) plans.set(program, (byBackend = new Map()));
  const key = backendName ?? '';
  let plan = byBackend.get(key);
  if (plan === undefined) byBackend.set(key, (plan = compile(program.graph, backendName)));
  return plan;
}

/** Runs the program on `args` (one tensor per root parameter); returns new tensors owned by the caller. */
export function execute(program: Program, args: tf.Tensor[]): tf.Tensor[] {
  if (engine().isTapeOn()) {
    const plan = planFor(program, undefined);
    return new EngineRun(program).run(plan, args, true);
  }
  const backendName = tf.getBackend();
  const plan = planFor(program, backendName);
  const backend = tf.engine().backend;
  const outs = new DirectRun(program, backend).run(plan, args);
  return outs.map((info) => (info instanceof Tensor ? info : engine().makeTensorFromTensorInfo(info, backend)));
}

function readScalar(backend: tf.KernelBackend, value: Value): boolean {
  if (value instanceof Tensor) return Boolean(value.dataSync()[0]);
  return Boolean((backend.readSync(value.dataId) as ArrayLike<number>)[0]);
}

class DirectRun {
  constructor(private readonly program: Program, private readonly backend: tf.KernelBackend) {}

  private release(value: Value): void {
    if (value instanceof Tensor) value.dispose();
    else this.backend.disposeData(value.dataId);
  }

  /** A reference the caller owns to a value it does not own (parameter or constant). */
  private share(value: Value): Value {
    this.backend.incRef(value.dataId);
    return { dataId: value.dataId, shape: value.shape, dtype: value.dtype };
  }

  /** Runs `plan`; `params` are borrowed; the returned values are owned by the caller. */
  run(plan: Plan, params: readonly Value[]): Value[] {
    const vals: (Value | undefined)[] = new Array(plan.numSlots);
    const { paramSlots, constantSlots, steps, owned } = plan;
    for (let i = 0; i < paramSlots.length; i++) if (paramSlots[i] >= 0) vals[paramSlots[i]] = params[i];
    for (let i = 0; i < constantSlots.length; i++) vals[constantSlots[i][0]] = this.program.constants[constantSlots[i][1]];
    try {
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i];
        this.step(step, vals);
        const free = step.free;
        for (let j = 0; j < free.length; j++) {
          this.release(vals[free[j]]!);
          vals[free[j]] = undefined;
        }
      }
    } catch (error) {
      for (let s = 0; s < vals.length; s++) if (owned[s] && vals[s] !== undefined) this.release(vals[s]!);
      throw error;
    }
    const results = plan.resultSlots;
    const out: Value[] = new Array(results.length);
    for (let i = 0; i < results.length; i++) {
      const s = results[i];
      // An owned value is handed over once; a repeated result or a borrowed one gets a new reference.
      out[i] = owned[s] && results.indexOf(s) === i ? vals[s]! : this.share(vals[s]!);
    }
    return out;
  }

  private step(step: Step, vals: (Value | undefined)[]): void {
    switch (step.kind) {
      case 'Kernel': {
        // The step's own inputs object, refilled per call: kernels do not keep it, and a step
        // never runs inside itself.
        const { ins, names } = step;
        let inputs = step.inputs as Record<string, Value> | Value[] | undefined;
        if (inputs === undefined) inputs = step.inputs = step.variadic ? [] : {};
        if (step.variadic) {
          for (let i = 0; i < ins.length; i++) (inputs as Value[])[i] = vals[ins[i]]!;
        } else {
          for (let i = 0; i < ins.length; i++) (inputs as Record<string, Value>)[names[i]] = vals[ins[i]]!;
        }
        const out = step.fn!({ inputs: inputs as tf.NamedTensorInfoMap, attrs: step.attrs as tf.NamedAttrMap,
          backend: this.backend });
        if (Array.isArray(out)) {
          for (let i = 0; i < step.outs.length; i++) vals[step.outs[i]] = out[i];
          for (let i = step.outs.length; i < out.length; i++) this.release(out[i]);
        } else {
          vals[step.outs[0]] = out;
        }
        return;
      }
      case 'ReadVariable': {
        const v = this.program.variables[step.variable];
        vals[step.out] = this.share(v);
        return;
      }
      case 'AssignVariable': {
        const v = this.program.variables[step.variable];
        const value = vals[step.value]!;
        // Variable.assign without its checks (done at trace time): the variable takes its own reference.
        engine().disposeTensor(v);
        (v as { dataId: object }).dataId = value.dataId;
        engine().incRef(v, this.backend);
        return;
      }
      case 'Random': {
        vals[step.out] = callRandomOp(step.op, step.args, step.ins.map((s) => this.tensorOf(vals[s]!)));
        return;
      }
      case 'If': {
        const branch = readScalar(this.backend, vals[step.cond]!) ? step.then : step.else;
        const outs = this.run(branch, step.ins.map((s) => vals[s]!));
        for (let i = 0; i < outs.length; i++) vals[step.outs[i]] = outs[i];
        return;
      }
      case 'While': {
        const n = step.loopVars;
        // The loop owns its variables: take a reference to the initial values.
        let current = step.ins.slice(0, n).map((s) => this.share(vals[s]!));
        const invariants = step.ins.slice(n).map((s) => vals[s]!);
        try {
          for (;;) {
            const [c] = this.run(step.cond, [...current, ...invariants]);
            const go = readScalar(this.backend, c);
            this.release(c);
            if (!go) break;
            const next = this.run(step.body, [...current, ...invariants]);
            for (const v of current) this.release(v);
            current = next;
          }
        } catch (error) {
          for (const v of current) this.release(v);
          throw error;
        }
        for (let i = 0; i < n; i++) vals[step.outs[i]] = current[i];
        return;
      }
      case 'Print': {
        const tensors = step.ins.map((s) => this.tensorOf(vals[s]!));
        try {
          console.log(...formatPrint(step.parts, tensors));
        } finally {
          tensors.forEach((t, i) => t !== vals[step.ins[i]] && t.dispose());
        }
        return;
      }
      case 'Check': {
        if (!readScalar(this.backend, vals[step.pred]!)) throw rebuildError(this.program.errors[step.error]);
        return;
      }
    }
  }

  /** A tf.Tensor view of a value for the host callbacks (a new reference, or the tensor itself). */
  private tensorOf(value: Value): tf.Tensor {
    if (value instanceof Tensor) return value;
    this.backend.incRef(value.dataId);
    return engine().makeTensorFromTensorInfo(value, this.backend);
  }
}

/** Engine mode: tensors all the way, every kernel through tf.engine().runKernel (taped). */
class EngineRun {
  constructor(private readonly program: Program) {}

  run(plan: Plan, params: readonly tf.Tensor[], root = false): tf.Tensor[] {
    const vals: (tf.Tensor | undefined)[] = new Array(plan.numSlots);
    const { paramSlots, constantSlots, steps, owned } = plan;
    for (let i = 0; i < paramSlots.length; i++) if (paramSlots[i] >= 0) vals[paramSlots[i]] = params[i];
    for (const [slot, c] of constantSlots) vals[slot] = this.program.constants[c];
    const ownedBy = (s: number): boolean => owned[s] && !(vals[s] instanceof tf.Variable);
    try {
      for (const step of steps) {
        this.step(step, vals);
        for (const s of step.free) {
          if (ownedBy(s)) vals[s]!.dispose();
          vals[s] = undefined;
        }
      }
    } catch (error) {
      for (let s = 0; s < vals.length; s++) if (ownedBy(s) && vals[s] !== undefined) vals[s]!.dispose();
      throw error;
    }
    const given = new Set<number>();
    void root;
    return plan.resultSlots.map((s) => {
      if (ownedBy(s) && !given.has(s)) {
        given.add(s);
        return vals[s]!;
      }
      return tf.clone(vals[s]!);
    });
  }

  private step(step: Step, vals: (tf.Tensor | undefined)[]): void {
    switch (step.kind) {
      case 'Kernel': {
        const inputs = step.variadic ? step.ins.map((s) => vals[s]!)
          : Object.fromEntries(step.names.map((name, i) => [name, vals[step.ins[i]]!]));
        const out = engine().runKernel(step.op, inputs, step.attrs);
        const outs = Array.isArray(out) ? out : [out];
        step.outs.forEach((s, i) => (vals[s] = outs[i]));
        outs.slice(step.outs.length).forEach((t) => t.dispose());
        return;
      }
      case 'ReadVariable':
        // The variable itself, so that tf.variableGrads finds it on the tape.
        vals[step.out] = this.program.variables[step.variable];
        return;
      case 'AssignVariable':
        this.program.variables[step.variable].assign(vals[step.value]!);
        return;
      case 'Random':
        vals[step.out] = callRandomOp(step.op, step.args, step.ins.map((s) => vals[s]!));
        return;
      case 'If': {
        const branch = vals[step.cond]!.dataSync()[0] ? step.then : step.else;
        const outs = this.run(branch, step.ins.map((s) => vals[s]!));
        step.outs.forEach((s, i) => (vals[s] = outs[i]));
        return;
      }
      case 'While': {
        const n = step.loopVars;
        let current = step.ins.slice(0, n).map((s) => tf.clone(vals[s]!));
        const invariants = step.ins.slice(n).map((s) => vals[s]!);
        for (;;) {
          const [c] = this.run(step.cond, [...current, ...invariants]);
          const go = Boolean(c.dataSync()[0]);
          c.dispose();
          if (!go) break;
          const next = this.run(step.body, [...current, ...invariants]);
          // Keep the previous values alive: the tape may still refer to them for the backward pass.
          current = next;
        }
        step.outs.forEach((s, i) => (vals[s] = current[i]));
        return;
      }
      case 'Print':
        console.log(...formatPrint(step.parts, step.ins.map((s) => vals[s]!)));
        return;
      case 'Check':
        if (!vals[step.pred]!.dataSync()[0]) throw rebuildError(this.program.errors[step.error]);
        return;
    }
  }
}
