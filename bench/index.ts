/**
 * `npm run bench`: staged vs eager on wasm and cpu, and the effect of each graph optimization.
 *
 * The machine this runs on is shared (2 cores, other jobs), so a number is only worth something
 * next to the number it is compared with, measured at the same moment:
 * - both sides are warmed up first (the first staged call traces; kernels and the JIT warm up);
 * - the two sides run in alternating batches (eager, staged, then staged, eager, ... so neither
 *   always goes first), each batch long enough (~BATCH_MS) to average out timer noise, with a
 *   gc() before each so one side's garbage is not collected on the other's clock;
 * - every round gives one ratio (its staged batch over its eager batch, measured back to back),
 *   and the report is the median over the rounds: of each side's ms per call and of the ratios,
 *   with the range of the ratios so a spread-out measurement is visible as such.
 * `node dist/bench/index.js quick` runs fewer, shorter rounds (a smoke test, not a measurement).
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { stage, StageOptions } from '../backends/stage';
import type { Graph } from '../backends/graph';
import { ablationCases, Case, cases, Prepared } from './cases';
import { onnxSection } from './onnx';

const quick = process.argv.includes('quick');
/** `node dist/bench/index.js onnx` runs only the ONNX engine's section. */
const onlyOnnx = process.argv.includes('onnx');
const ROUNDS = quick ? 3 : 9;
const BATCH_MS = quick ? 40 : 150;
const WARMUP_MS = quick ? 50 : 200;
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'wasm,cpu').split(',');
/** BENCH_CASES=bptt64,rnn64 runs only those cases (by key). */
const ONLY = process.env.BENCH_CASES?.split(',');
const selected = <C extends Case>(list: C[]): C[] => list.filter((c) => ONLY === undefined || ONLY.includes(c.key));

type Call = () => tf.Tensor;

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Runs `call` `n` times (result read and freed each time); mean ms per call. */
function batch(call: Call, n: number): number {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const out = call();
    out.dataSync();
    out.dispose();
  }
  return (performance.now() - start) / n;
}

/** Warms `call` up (at least 2 calls and WARMUP_MS); the calls per batch that make ~BATCH_MS. */
function warmUp(call: Call): number {
  let calls = 0;
  const start = performance.now();
  let last = 0;
  while (calls < 2 || performance.now() - start < WARMUP_MS) {
    last = batch(call, 1);
    calls++;
  }
  return Math.max(1, Math.round(BATCH_MS / Math.max(last, 1e-3)));
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface Comparison {
  base: number;
  other: number;
  /** Median over rounds of other/base. */
  ratio: number;
  low: number;
  high: number;
}

/** `other` against `base`, in alternating batches (see the header). */
function compare(base: Call, other: Call): Comparison {
  const nBase = warmUp(base);
  const nOther = warmUp(other);
  const bs: number[] = [];
  const os: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let b = 0;
    let o = 0;
    if (r % 2 === 0) {
      gc(); b = batch(base, nBase);
      gc(); o = batch(other, nOther);
    } else {
      gc(); o = batch(other, nOther);
      gc(); b = batch(base, nBase);
    }
    bs.push(b);
    os.push(o);
    ratios.push(o / b);
  }
  return { base: median(bs), other: median(os), ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}

/** Runs `body` on a freshly prepared case and checks that it leaves no tensors behind. */
function withCase<T>(c: Case, body: (p: Prepared) => T): T {
  const before = tf.memory().numTensors;
  const p = c.prepare();
  const owned = p.args.length + p.captured.length;
  let result: T;
  try {
    result = body(p);
  } finally {
    tf.dispose([...p.args, ...p.captured]);
    p.dispose?.();
  }
  const after = tf.memory().numTensors;
  if (after !== before) console.log(`  !! ${c.name}: ${after - before} tensors left behind (of ${owned} prepared)`);
  return result;
}

const ms = (x: number): string => (x < 10 ? x.toFixed(3) : x < 100 ? x.toFixed(2) : x.toFixed(1)).padStart(9);
const ratioText = (c: Comparison): string =>
  `${c.ratio.toFixed(2).padStart(6)}  [${c.low.toFixed(2)}-${c.high.toFixed(2)}]`;

interface Row { backend: string; c: Case; r: Comparison }

function stagedVsEager(c: Case): Comparison {
  return withCase(c, ({ fn, args }) => {
    // The tfjs executor (the ONNX engine has its own section).
    const staged = stage(fn, { engine: 'tfjs' });
    try {
      return compare(() => tf.tidy(() => fn(...args)), () => staged(...args));
    } finally {
      staged.dispose();
    }
  });
}

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

function ablation(c: (typeof ablationCases)[number], backend: string): AblationRow {
  return withCase(c, ({ fn, args }) => {
    const on = stage(fn, { engine: 'tfjs' });
    const off = stage(fn, { engine: 'tfjs', optimize: { [c.optimization]: false } } as StageOptions);
    try {
      const kernelsOn = countsText(kernelCounts(on.inspect(...args).program.graph));
      const kernelsOff = countsText(kernelCounts(off.inspect(...args).program.graph));
      const r = compare(() => on(...args), () => off(...args));
      return { backend, label: c.label, name: c.name, r, kernelsOn, kernelsOff };
    } finally {
      on.dispose();
      off.dispose();
    }
  });
}

/** The acceptance criteria (#3), per row. */
function verdict(row: Row): string {
  if (row.c.key === 'chain' || row.c.key === 'collatz') return row.r.ratio <= 0.5 ? 'ok (>= 2x)' : 'MISSED (< 2x)';
  if (row.r.ratio <= 1) return 'ok (not slower)';
  // Kernel-bound cases (the cpu RNNs spend ~95% of both runs in the same BatchMatMul calls) sit
  // at parity; say so instead of flipping between ok and missed on noise. The ratio is printed.
  return row.r.ratio <= 1.02 && row.r.low < 1 ? 'parity (within noise)' : 'MISSED (slower)';
}

async function main(): Promise<void> {
  const started = performance.now();
  const rows: Row[] = [];
  const ablations: AblationRow[] = [];
  const header = `${'case'.padEnd(36)}${'backend'.padEnd(8)}${'eager ms'.padStart(9)}${'staged ms'.padStart(10)}` +
    `  staged/eager [range over ${ROUNDS} rounds]`;
  const line = (row: Row): string => `${row.c.name.padEnd(36)}${row.backend.padEnd(8)}${ms(row.r.base)} ${ms(row.r.other)}` +
    `  ${ratioText(row.r)}  ${verdict(row)}`;
  const ablationLine = (a: AblationRow): string =>
    `${a.label.padEnd(24)}${a.name.padEnd(38)}${a.backend.padEnd(8)}${ms(a.r.base)} ${ms(a.r.other)}` +
    `  ${a.r.ratio.toFixed(2).padStart(5)}x [${a.r.low.toFixed(2)}-${a.r.high.toFixed(2)}]  ${a.kernelsOn} vs ${a.kernelsOff}`;
  const ablationHeader = `${'optimization'.padEnd(24)}${'case'.padEnd(38)}${'backend'.padEnd(8)}${'with ms'.padStart(9)}` +
    `${'without'.padStart(10)}  without/with [range]  kernels run: per call + per iteration, with vs without`;
  if (onlyOnnx) {
    await tf.setBackend(BACKENDS[0]);
    await onnxSection(compare);
    return;
  }
  console.log(header);
  for (const backend of BACKENDS) {
    if (!(await tf.setBackend(backend))) throw new Error(`backend ${backend} is not available`);
    await tf.ready();
    for (const c of selected(cases)) {
      const row = { backend, c, r: stagedVsEager(c) };
      rows.push(row);
      console.log(line(row));
    }
  }
  console.log(`\n${ablationHeader}`);
  for (const backend of BACKENDS) {
    await tf.setBackend(backend);
    for (const c of selected(ablationCases)) {
      const a = ablation(c, backend);
      ablations.push(a);
      console.log(ablationLine(a));
    }
  }
  console.log(`\n== ONNX engine (${BACKENDS[0]}; see bench/onnx.ts)`);
  await tf.setBackend(BACKENDS[0]);
  const onnxLines = await onnxSection(compare);
  console.log(`\n== staged vs eager (medians; ${ROUNDS} alternating rounds of ~${BATCH_MS} ms batches)\n${header}`);
  for (const row of rows) console.log(line(row));
  console.log(`\n== effect of each optimization (staged, all optimizations vs all but one)\n${ablationHeader}`);
  for (const a of ablations) console.log(ablationLine(a));
  console.log(`\n== ONNX engine (medians)\n${onnxLines.join('\n')}`);
  console.log(`\nbench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
