/**
 * `npm run bench`: every sample workload in its variants side by side (bench/workloads.ts: tfjs
 * eager as written today, autograph-ts eager, staged on the tfjs executor, staged on ONNX Runtime,
 * a hand-built ONNX graph), on the wasm and cpu backends, timed as bench/measure.ts describes; then
 * the effect of each graph optimization. Prints a block per workload as it goes, a summary table
 * and the paper's comparisons at the end, and writes everything to bench/results.json.
 *   npm run bench -- --quick    wasm only, fewer and shorter rounds, one RNN size (a smoke test, ~1 min)
 *   npm run bench -- --full     the RNN grid on cpu too, and the ONNX engine section (bench/onnx.ts)
 *   npm run bench -- onnx       only the ONNX engine section
 * BENCH_BACKENDS=wasm limits the backends, BENCH_CASES=rnn,decode the workloads (key prefixes); the
 * sections 'hoisting' (bench/hoisting.ts) and 'first-call' (bench/first_call.ts) run when named there too.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage, StageOptions } from '../backends/stage';
import type { Graph } from '../backends/graph/graph';
import { ablationCases, Case, Prepared as CasePrepared } from './cases';
import { compare, Comparison, measure, medianMs, Ratio, ratio, runOnce, Settings } from './measure';
import { onnxSection } from './onnx';
import { measureGemmPeak, Peak, rooflineText } from './roofline';
import { hoistingSection } from './hoisting';
import { firstCallSection, FirstCallRow } from './first_call';
import { Variant, VariantKey, Workload, workloads } from './workloads';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick') || argv.includes('quick');
const full = argv.includes('--full');
const onlyOnnx = argv.includes('onnx');
const settings: Settings = quick
  ? { rounds: 3, batchMs: 40, warmupMs: 30, budgetMs: 2_000 }
  : { rounds: 7, batchMs: 150, warmupMs: 200, budgetMs: 15_000 };
/** --quick runs on wasm only (the cpu backend's matrix products take seconds per call). */
const BACKENDS = (process.env.BENCH_BACKENDS ?? (quick ? 'wasm' : 'wasm,cpu')).split(',');
const ONLY = process.env.BENCH_CASES?.split(',');
const selected = <W extends { key: string }>(list: W[]): W[] =>
  list.filter((w) => ONLY === undefined || ONLY.some((k) => w.key.startsWith(k)));
const ROOT = path.resolve(__dirname, '../..');

// ---- one workload ----

interface VariantResult {
  key: VariantKey;
  label: string;
  missing?: string;
  ms?: number;
  /** eager ms / this variant's ms, per round. */
  speedup?: Ratio;
  /** The same in CPU time (the steadier figure when other jobs share the machine: see bench/measure.ts). */
  cpuMs?: number;
  cpuSpeedup?: Ratio;
  /** this variant's ms / the hand-built graph's ms, per round. */
  vsNative?: Ratio;
  /** this variant's ms / the expert hand-built graph's ms (projection hoisted), per round. */
  vsExpert?: Ratio;
  /** The first call: for staged variants it traces, optimizes and builds the engine's program. */
  firstCallMs?: number;
  /** Largest |difference| from the eager result, relative to the eager result's largest |value| (at least 1). */
  maxDiff?: number;
}

interface WorkloadResult {
  key: string;
  name: string;
  /** Floating-point work per call (bench/roofline.ts). */
  flops?: number;
  backend: string;
  rounds: number;
  variants: VariantResult[];
  /** After timing: the ONNX sessions' threads per operator, and how they were chosen. */
  notes: string[];
  /** Tensors alive before the workload was prepared, after its first calls, after timing, after it was freed. */
  tensors: { before: number; afterFirstCalls: number; afterTiming: number; afterDispose: number };
}

const DIFF_TOLERANCE = 1e-3;

/** This machine's fp32 GEMM peak, measured at the start of the run (bench/roofline.ts). */
let peak: Peak | undefined;

interface Values { shape: number[]; data: Float64Array }

function firstCall(v: Variant): { values: Values[]; ms: number } {
  const start = performance.now();
  const out = v.call!();
  const values = out.map((t) => ({ shape: t.shape, data: Float64Array.from(t.dataSync() as ArrayLike<number>) }));
  const ms = performance.now() - start;
  tf.dispose(out);
  return { values, ms };
}

function difference(got: Values[], want: Values[]): number {
  let worst = 0;
  want.forEach((w, i) => {
    const g = got[i];
    if (g === undefined || g.shape.join() !== w.shape.join()) {
      worst = Infinity;
      return;
    }
    const scale = Math.max(1, ...w.data.map(Math.abs));
    w.data.forEach((x, j) => {
      const d = Number.isNaN(x) && Number.isNaN(g.data[j]) ? 0 : Math.abs(g.data[j] - x) / scale;
      worst = Math.max(worst, Number.isNaN(d) ? Infinity : d);
    });
  });
  return worst;
}

/** Why a variant could not run, in one short line: for a graph that does not lower to ONNX, what does not. */
function reason(error: Error): string {
  const message = error.message.split('\n')[0].replace(/^autograph-ts: /, '');
  const kernels = new Set([...message.matchAll(/no ONNX lowering for tfjs kernel '(\w+)'|node kind (\w+)/g)].map((m) => m[1] ?? `${m[2]} nodes`));
  if (kernels.size > 0) return `does not lower to ONNX: ${[...kernels].join(', ')}`;
  return message.length > 150 ? `${message.slice(0, 150)}...` : message;
}

function runWorkload(w: Workload, backend: string): WorkloadResult {
  const before = tf.memory().numTensors;
  const p = w.prepare();
  const results: VariantResult[] = p.variants.map((v) => ({ key: v.key, label: v.label, missing: v.missing }));
  let afterFirstCalls = 0;
  let afterTiming = 0;
  let rounds = 0;
  let notes: string[] = [];
  try {
    let reference: Values[] | undefined;
    p.variants.forEach((v, i) => {
      if (v.call === undefined) return;
      p.reset?.();
      try {
        const { values, ms } = firstCall(v);
        reference ??= values;
        results[i].firstCallMs = ms;
        results[i].maxDiff = difference(values, reference);
      } catch (error) {
        if (i === 0) throw error;
        // A variant that cannot run (e.g. a graph that does not lower to ONNX) says why.
        results[i].missing = reason(error as Error);
        v.call = undefined;
      }
    });
    p.reset?.();
    afterFirstCalls = tf.memory().numTensors;
    const runnable = p.variants.flatMap((v, i) => (v.call === undefined ? [] : [i]));
    const r = measure(runnable.map((i) => p.variants[i].call!), settings);
    afterTiming = tf.memory().numTensors;
    rounds = r.ms.length;
    const native = runnable.findIndex((i) => p.variants[i].key === 'native');
    const expert = runnable.findIndex((i) => p.variants[i].key === 'expert');
    runnable.forEach((i, j) => {
      results[i].ms = medianMs(r, j);
      results[i].speedup = ratio(r, 0, j);
      results[i].cpuMs = medianMs(r, j, 'cpu');
      results[i].cpuSpeedup = ratio(r, 0, j, 'cpu');
      if (native >= 0) results[i].vsNative = ratio(r, j, native);
      if (expert >= 0) results[i].vsExpert = ratio(r, j, expert);
    });
    notes = p.notes?.() ?? [];
  } finally {
    p.dispose();
  }
  return {
    key: w.key, name: w.name, flops: w.flops, backend, rounds, variants: results, notes,
    tensors: { before, afterFirstCalls, afterTiming, afterDispose: tf.memory().numTensors },
  };
}

// ---- printing ----

const ms = (x: number | undefined): string =>
  (x === undefined ? '—' : x < 10 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(1)).padStart(9);
const times = (r: Ratio | undefined, width = 6): string => (r === undefined ? '—' : `${r.ratio.toFixed(2)}x`).padStart(width);
const range = (r: Ratio | undefined): string => (r === undefined ? '' : `[${r.low.toFixed(2)}-${r.high.toFixed(2)}]`);
const STAGED_KEYS: VariantKey[] = ['staged', 'onnx', 'staged-step', 'onnx-step'];

function tensorsText(t: WorkloadResult['tensors']): string {
  const perCall = t.afterTiming - t.afterFirstCalls;
  const left = t.afterDispose - t.before;
  return `tensors ${t.afterFirstCalls} -> ${t.afterTiming} while timing${perCall === 0 ? '' : ' (LEAK)'}, ` +
    `${left === 0 ? 'none' : `${left} (LEAK)`} left after`;
}

function printWorkload(r: WorkloadResult): void {
  const eagerMs = r.variants[0].ms!;
  console.log(` median of ${r.rounds} rounds; ${tensorsText(r.tensors)}`);
  console.log(`  ${'variant'.padEnd(38)}${'ms/call'.padStart(9)}  ${'speed-up vs eager [range]'.padEnd(27)}${'cpu-time'.padStart(9)}` +
    `${'x native'.padStart(9)}  ${'first call (trace)'.padEnd(26)}max |diff|`);
  for (const v of r.variants) {
    if (v.ms === undefined) {
      console.log(`  ${v.label.padEnd(38)}${'—'.padStart(9)}  ${v.missing ?? ''}`);
      continue;
    }
    const first = v.firstCallMs === undefined ? '' : `${v.firstCallMs.toFixed(0)} ms = ${(v.firstCallMs / eagerMs).toFixed(1)} eager calls`;
    const diff = v.maxDiff === undefined ? '' : v.maxDiff === 0 ? '0' : `${v.maxDiff.toExponential(1)}${v.maxDiff > DIFF_TOLERANCE ? ' DIFFERS' : ''}`;
    const roof = r.flops === undefined ? '' : `  ${rooflineText(r.flops, v.ms, peak)}`;
    const expert = v.vsExpert === undefined || v.key === 'expert' ? '' : `  ${times(v.vsExpert, 0)} expert`;
    console.log(`  ${v.label.padEnd(38)}${ms(v.ms)}  ${`${times(v.speedup)} ${range(v.speedup)}`.padEnd(27)}${times(v.cpuSpeedup, 9)}` +
      `${times(v.vsNative, 9)}  ${first.padEnd(26)}${diff.padEnd(9)}${roof}${expert}`);
  }
  for (const note of r.notes) console.log(`  ${note}`);
}

const variant = (r: WorkloadResult, key: VariantKey): VariantResult | undefined => r.variants.find((v) => v.key === key && v.ms !== undefined);

/**
 * Staged variants slower than eager, in CPU time (steady under load) and beyond noise: a median
 * ratio below 0.98, or below 1 with no round at or above 1.
 */
function slower(r: WorkloadResult): string[] {
  return r.variants.filter((v) => STAGED_KEYS.includes(v.key) && v.cpuSpeedup !== undefined &&
    v.cpuSpeedup.ratio < 1 && !(v.cpuSpeedup.ratio >= 0.98 && v.cpuSpeedup.high >= 1)).map((v) => v.key);
}

/** The issue's acceptance figures for the ONNX engine on the RNN and the decoder (wasm). */
function onnxTargets(r: WorkloadResult): string {
  if (r.backend !== 'wasm' || !(r.key.startsWith('rnn') || r.key === 'decode')) return '';
  const onnx = variant(r, 'onnx');
  if (onnx === undefined) return 'onnx: MISSING';
  const fast = onnx.speedup!.ratio >= 7 ? 'ok' : 'MISSED';
  const near = onnx.vsNative === undefined ? '—' : onnx.vsNative.ratio <= 1.3 ? 'ok' : 'MISSED';
  return `>=7x eager ${fast}, <=1.3x native ${near}`;
}

function summaryHeader(): string {
  return `${'workload'.padEnd(44)}${'backend'.padEnd(8)}${'eager ms'.padStart(9)}${'ag eager'.padStart(9)}${'staged'.padStart(8)}` +
    `${'onnx'.padStart(8)}${'native'.padStart(8)}${'onnx/nat'.padStart(9)}${'trace'.padStart(7)}${'staged cpu'.padStart(11)}  verdict`;
}

function summaryLine(r: WorkloadResult): string {
  const speed = (key: VariantKey): string => times(variant(r, key)?.speedup, 8);
  const staged = variant(r, 'staged');
  const trace = staged?.firstCallMs === undefined ? '—' : `${(staged.firstCallMs / r.variants[0].ms!).toFixed(1)}e`;
  const slow = slower(r);
  const leak = r.tensors.afterTiming !== r.tensors.afterFirstCalls || r.tensors.afterDispose !== r.tensors.before;
  const differs = r.variants.some((v) => (v.maxDiff ?? 0) > DIFF_TOLERANCE);
  const verdict = [slow.length === 0 ? 'staged >= eager' : `SLOWER: ${slow.join(', ')}`, onnxTargets(r),
    leak ? 'LEAK' : '', differs ? 'RESULTS DIFFER' : ''].filter((s) => s !== '').join('; ');
  return `${r.name.padEnd(44)}${r.backend.padEnd(8)}${ms(r.variants[0].ms)}${speed('autograph').slice(-9).padStart(9)}` +
    `${speed('staged')}${speed('onnx')}${speed('native')}${times(variant(r, 'onnx')?.vsNative, 9)}${trace.padStart(7)}` +
    `${times(variant(r, 'staged')?.cpuSpeedup, 11)}  ${verdict}`;
}

/** The AutoGraph paper's figures next to ours. */
function paperComparisons(results: WorkloadResult[]): string[] {
  const lines: string[] = [];
  const find = (key: string, backend: string) => results.find((r) => r.key === key && r.backend === backend);
  for (const backend of BACKENDS) {
    const newton = find('newton', backend);
    const nStaged = newton && variant(newton, 'staged');
    const nOnnx = newton && variant(newton, 'onnx');
    if (newton) {
      lines.push(`L-BFGS/Newton, paper ~2x staged over eager; Newton-CG [${backend}]: tfjs executor ${times(nStaged?.speedup, 0)}` +
        ` (CPU time ${times(nStaged?.cpuSpeedup, 0)})` +
        `, ONNX Runtime ${nOnnx ? times(nOnnx.speedup, 0) : `— (${newton.variants.find((v) => v.key === 'onnx')?.missing})`}`);
    }
    const mnist = find('mnist', backend);
    if (mnist) {
      const step = variant(mnist, 'staged-step');
      const loop = variant(mnist, 'staged');
      const onnxStep = variant(mnist, 'onnx-step');
      const onnxLoop = variant(mnist, 'onnx');
      const gain = (a?: VariantResult, b?: VariantResult): string =>
        (a?.ms === undefined || b?.ms === undefined ? '—'
          : `${((a.ms / b.ms - 1) * 100).toFixed(0)}% (CPU time ${((a.cpuMs! / b.cpuMs! - 1) * 100).toFixed(0)}%)`);
      lines.push(`Whole training loop in the graph, paper +30% over a graph per step; MNIST [${backend}]: tfjs executor ` +
        `${gain(step, loop)} (${ms(step?.ms).trim()} -> ${ms(loop?.ms).trim()} ms), ONNX Runtime ${gain(onnxStep, onnxLoop)}` +
        ` (${ms(onnxStep?.ms).trim()} -> ${ms(onnxLoop?.ms).trim()} ms)`);
    }
    const beam = find('seq2seq-beam', backend);
    if (beam) {
      lines.push(`Beam search, paper 2-3.2x staged over eager; samples/seq2seq beam 4 [${backend}]: ` +
        `tfjs executor ${times(variant(beam, 'staged')?.speedup, 0)} (CPU time ${times(variant(beam, 'staged')?.cpuSpeedup, 0)}), ` +
        `ONNX Runtime ${times(variant(beam, 'onnx')?.speedup, 0)} over eager`);
    }
  }
  return lines;
}

// ---- the optimization ablation (bench/cases.ts) ----

/** Kernel nodes run once per call (outside loops) and once per loop iteration (in loop bodies and tests). */
function kernelCounts(graph: Graph, inLoop = false, counts = { perCall: 0, perIteration: 0 }): typeof counts {
  for (const node of graph.nodes) {
    if (node.kind === 'Kernel') counts[inLoop ? 'perIteration' : 'perCall']++;
    if (node.kind === 'If') {
      kernelCounts(node.then, inLoop, counts);
      kernelCounts(node.else, inLoop, counts);
    }
    if (node.kind === 'While') {
      kernelCounts(node.cond, true, counts);
      kernelCounts(node.body, true, counts);
    }
  }
  return counts;
}

const countsText = (k: ReturnType<typeof kernelCounts>): string => `${k.perCall}+${k.perIteration}/it`;

interface AblationRow { backend: string; label: string; name: string; r: Comparison; kernelsOn: string; kernelsOff: string }

/** Runs `body` on a freshly prepared case and checks that it leaves no tensors behind. */
function withCase<T>(c: Case, body: (p: CasePrepared) => T): T {
  const before = tf.memory().numTensors;
  const p = c.prepare();
  try {
    return body(p);
  } finally {
    tf.dispose([...p.args, ...p.captured]);
    p.dispose?.();
    const left = tf.memory().numTensors - before;
    if (left !== 0) console.log(`  !! ${c.name}: ${left} tensors left behind`);
  }
}

function ablation(c: (typeof ablationCases)[number], backend: string): AblationRow {
  return withCase(c, ({ fn, args }) => {
    const on = stage(fn, { engine: 'tfjs' });
    const off = stage(fn, { engine: 'tfjs', optimize: { [c.optimization]: false } } as StageOptions);
    try {
      const kernelsOn = countsText(kernelCounts(on.inspect(...args).program.graph));
      const kernelsOff = countsText(kernelCounts(off.inspect(...args).program.graph));
      const r = compare(() => on(...args), () => off(...args), settings);
      return { backend, label: c.label, name: c.name, r, kernelsOn, kernelsOff };
    } finally {
      on.dispose();
      off.dispose();
    }
  });
}

const ablationHeader = `${'optimization'.padEnd(24)}${'case'.padEnd(38)}${'backend'.padEnd(8)}${'with ms'.padStart(9)}` +
  `${'without'.padStart(10)}  without/with [range]  kernels run: per call + per iteration, with vs without`;
const ablationLine = (a: AblationRow): string =>
  `${a.label.padEnd(24)}${a.name.padEnd(38)}${a.backend.padEnd(8)}${ms(a.r.base)} ${ms(a.r.other)}` +
  `  ${a.r.ratio.toFixed(2).padStart(5)}x [${a.r.low.toFixed(2)}-${a.r.high.toFixed(2)}]  ${a.kernelsOn} vs ${a.kernelsOff}`;

// ---- main ----

async function useBackend(backend: string): Promise<void> {
  if (!(await tf.setBackend(backend))) throw new Error(`backend ${backend} is not available`);
  await tf.ready();
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadBefore = os.loadavg();
  const twoWay = (base: () => tf.Tensor, other: () => tf.Tensor): Comparison => compare(base, other, settings);
  if (onlyOnnx) {
    await useBackend(BACKENDS[0]);
    await onnxSection(twoWay);
    return;
  }
  console.log(`npm run bench${quick ? ' --quick' : full ? ' --full' : ''}: ${BACKENDS.join(', ')}; up to ${settings.rounds} ` +
    `alternating rounds of ~${settings.batchMs} ms batches per workload; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} ` +
    `on ${os.cpus().length} cores`);
  peak = measureGemmPeak();
  console.log(peak?.how ?? '(no GEMM peak: onnxruntime-node is not installed)');
  const results: WorkloadResult[] = [];
  const options = { mnistSteps: quick ? 20 : 100 };
  for (const backend of BACKENDS) {
    await useBackend(backend);
    for (const w of selected(workloads({ quick, full, backend }, options))) {
      process.stdout.write(`\n[${((performance.now() - started) / 1000).toFixed(0)} s] ${w.name} [${backend}] ...`);
      const r = runWorkload(w, backend);
      results.push(r);
      printWorkload(r);
    }
  }
  // Sections run in a full run, or when BENCH_CASES names them.
  const section = (name: string): boolean => ONLY === undefined || ONLY.includes(name);
  let hoisting: string[] = [];
  if (section('hoisting')) {
    console.log(`\n== loop rewrites off vs on (optimize: { hoistProjections, accumulatedProducts }), ${BACKENDS[0]}; see bench/hoisting.ts`);
    await useBackend(BACKENDS[0]);
    hoisting = hoistingSection(twoWay, peak);
  }
  let firstCalls: FirstCallRow[] = [];
  if (section('first-call')) {
    console.log(`\n== the first call, phase by phase, next to one eager call (${BACKENDS[0]}; see bench/first_call.ts)`);
    await useBackend(BACKENDS[0]);
    firstCalls = firstCallSection();
  }
  const ablations: AblationRow[] = [];
  if (ONLY === undefined) {
    console.log(`\n== effect of each optimization (staged, all optimizations vs all but one)\n${ablationHeader}`);
    for (const backend of BACKENDS) {
      await useBackend(backend);
      for (const c of ablationCases) {
        const a = ablation(c, backend);
        ablations.push(a);
        console.log(ablationLine(a));
      }
    }
  }
  let onnxLines: string[] = [];
  if (full) {
    console.log(`\n== ONNX engine (${BACKENDS[0]}; see bench/onnx.ts)`);
    await useBackend(BACKENDS[0]);
    onnxLines = await onnxSection(twoWay);
  }
  const seconds = (performance.now() - started) / 1000;
  const loadAfter = os.loadavg();

  console.log('\n== summary: speed-up over tfjs eager in wall-clock time (median of per-round ratios); onnx/nat = ONNX engine ms /' +
    ' hand-built graph ms; trace = first staged call in eager calls; staged cpu = the staged speed-up in CPU time');
  console.log(summaryHeader());
  for (const r of results) console.log(summaryLine(r));
  const paper = paperComparisons(results);
  console.log(`\n== the paper's comparisons\n${paper.join('\n')}`);
  console.log(`\nbench took ${seconds.toFixed(0)} s; load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, ` +
    `after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);

  if (quick || ONLY !== undefined) {
    console.log('(a partial run: bench/results.json not written)');
    return;
  }
  const json = {
    date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadBefore, loadAfter,
    mode: full ? 'full' : 'default', settings, backends: BACKENDS, seconds, gemmPeak: peak, workloads: results, hoisting, firstCalls, ablations,
    onnxSection: onnxLines, paper,
  };
  fs.writeFileSync(path.join(ROOT, 'bench/results.json'), `${JSON.stringify(json, (_, v) => (v === Infinity ? 'Infinity' : v), 1)}\n`);
  console.log('written to bench/results.json');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
