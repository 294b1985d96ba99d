#!/usr/bin/env node
'use strict';
/**
 * Figures about the transformer on the sample projects (run `npm run build` first):
 *
 *  1. Compile time: `tspc -b --force` over all samples, with the plugin vs without it (the same
 *     projects with the "plugins" entry removed), and plain `tsc` for reference; median of N runs
 *     each (default 5, interleaved so that load changes hit all variants alike). The CPU time of
 *     the compiler process (user + system) is the main figure: on a shared machine wall time
 *     mostly measures the neighbours. A fourth variant wraps the transformer to measure the time
 *     spent inside it.
 *  2. Classification: every if / loop condition, for...of iterable and `&&` `||` `!` `?:` in the
 *     functions the transformer converts, classified with the transformer's own Classifier and
 *     conversion plan (transformer/classify.ts, transformer/analysis/plan.ts):
 *       static  – emitted unchanged;
 *       staged  – a Tensor: an operator call;
 *       dynamic – any/unknown/union/type parameter: an operator call that dispatches at run time
 *                 (or kept native when it cannot become a closure, e.g. it holds a yield);
 *       jump    – a static condition converted anyway because a tensor-dependent break,
 *                 continue or return leaves through it.
 *
 * Usage: node scripts/compile-stats.js [--runs N] [--no-timing]
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const ts = require('typescript');
const { ROOT, SAMPLES, sampleDir, copySamples, runNode, tspcPath, tscPath } = require('./samples');

const DIST = path.join(ROOT, 'dist/transformer');
const { Classifier } = require(path.join(DIST, 'classify.js'));
const { planFunction } = require(path.join(DIST, 'analysis/plan.js'));
const { selectFunctions, isConvertibleFunction } = require(path.join(DIST, 'directives.js'));

// ---------------------------------------------------------------------------------------------
// Compile time

const PLUGIN_LINE = /^\s*"plugins":.*\n/m;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A scratch copy of the samples whose tsconfig.json files are rewritten by `edit`. */
function scratchCopy(root, name, edit) {
  const dir = path.join(root, name);
  copySamples(dir, SAMPLES);
  for (const sample of SAMPLES) {
    const file = path.join(dir, sample, 'tsconfig.json');
    const text = fs.readFileSync(file, 'utf8');
    const edited = edit(text);
    if (edited === text) throw new Error(`could not edit ${file}`);
    fs.writeFileSync(file, edited);
  }
  return dir;
}

const TIMED_TRANSFORMER = `'use strict';
// Wraps the autograph transformer and adds up the time spent in it (selection, analyses,
// conversion) over the whole tspc process; written to $AUTOGRAPH_TIMING_FILE at exit.
const fs = require('fs');
const { performance } = require('perf_hooks');
const transformer = require('autograph-ts/transformer').default;
let total = 0;
process.on('exit', () => fs.appendFileSync(process.env.AUTOGRAPH_TIMING_FILE, total + '\\n'));
module.exports = (program, config, extras) => {
  let start = performance.now();
  const factory = transformer(program, config, extras);
  total += performance.now() - start;
  return (context) => {
    start = performance.now();
    const transform = factory(context);
    total += performance.now() - start;
    return (file) => {
      const t = performance.now();
      try { return transform(file); } finally { total += performance.now() - t; }
    };
  };
};
`;

const CPU_REPORT = `'use strict';
// Preloaded into the compiler process: appends its CPU time (user + system, ms) at exit.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  require('fs').appendFileSync(process.env.AUTOGRAPH_CPU_FILE, (user + system) / 1000 + '\\n');
});
`;

async function measureCompileTime(runs) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'autograph-stats-'));
  try {
    const withPlugin = path.join(root, 'with');
    copySamples(withPlugin, SAMPLES);
    const withoutPlugin = scratchCopy(root, 'without', (text) => text.replace(PLUGIN_LINE, ''));
    const timed = scratchCopy(root, 'timed', (text) =>
      text.replace('"transform": "autograph-ts/transformer"', '"transform": "../timed-transformer.js"'));
    fs.writeFileSync(path.join(timed, 'timed-transformer.js'), TIMED_TRANSFORMER);
    const timingFile = path.join(root, 'transformer-ms.txt');
    const cpuFile = path.join(root, 'cpu-ms.txt');
    const cpuReport = path.join(root, 'cpu-report.js');
    fs.writeFileSync(cpuReport, CPU_REPORT);
    const build = (compiler, cwd, env = {}) => runBuild(compiler, cwd, { ...env, AUTOGRAPH_CPU_FILE: cpuFile }, ['--require', cpuReport]);

    const variants = [
      { key: 'tsc', label: 'tsc (plain TypeScript)', run: () => build(tscPath(), withoutPlugin) },
      { key: 'without', label: 'tspc without the plugin', run: () => build(tspcPath(), withoutPlugin) },
      { key: 'with', label: 'tspc with the plugin', run: () => build(tspcPath(), withPlugin) },
      { key: 'timed', label: 'tspc, timing the transformer', run: () => build(tspcPath(), timed, { AUTOGRAPH_TIMING_FILE: timingFile }) },
    ];
    const times = Object.fromEntries(variants.map((v) => [v.key, []]));
    const cpu = Object.fromEntries(variants.map((v) => [v.key, []]));
    for (const v of variants) await v.run();   // warm-up: ts-patch's cache, the file system
    fs.rmSync(timingFile, { force: true });
    for (let i = 0; i < runs; i++) {
      for (const v of variants) {
        fs.rmSync(cpuFile, { force: true });
        const result = await v.run();
        times[v.key].push(result.ms);
        cpu[v.key].push(Number(fs.readFileSync(cpuFile, 'utf8').trim()));
      }
      process.stderr.write(`  run ${i + 1}/${runs}\r`);
    }
    process.stderr.write('\n');
    const inside = fs.readFileSync(timingFile, 'utf8').trim().split('\n').map(Number);
    return { variants, times, cpu, inside };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function runBuild(compiler, cwd, env = {}, nodeArgs = []) {
  const result = await runNode([...nodeArgs, compiler, '-b', '--force', ...SAMPLES], { cwd, env: { ...process.env, ...env } });
  if (result.code !== 0) throw new Error(`${path.basename(compiler)} -b failed in ${cwd}:\n${result.stdout}${result.stderr}`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Classification

const CLASSES = ['static', 'staged', 'dynamic', 'jump'];

function createProgram(tsconfigPath) {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
  });
  return { program: ts.createProgram(parsed.fileNames, parsed.options), config: parsed.raw.compilerOptions.plugins?.[0] ?? {} };
}

/** The converted functions: the selection plus every function nested in a selected one. */
function convertedFunctions(program, convertAll) {
  const selected = selectFunctions(program, convertAll);
  const result = new Set();
  const visit = (node, inside) => {
    const converting = inside || (isConvertibleFunction(node) && selected.has(node));
    if (isConvertibleFunction(node) && converting) result.add(node);
    ts.forEachChild(node, (child) => visit(child, converting));
  };
  for (const file of program.getSourceFiles()) if (!file.isDeclarationFile && !file.fileName.includes('node_modules')) visit(file, false);
  return [...result];
}

function isLogical(node) {
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    return op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken ||
      op === ts.SyntaxKind.AmpersandAmpersandEqualsToken || op === ts.SyntaxKind.BarBarEqualsToken;
  }
  return (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) || ts.isConditionalExpression(node);
}

/** The predicate or iterable a control statement is classified by, if any. */
function subjectOf(node) {
  if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) return { expr: node.expression, iterable: false };
  if (ts.isForStatement(node)) return node.condition ? { expr: node.condition, iterable: false } : null;
  if (ts.isForOfStatement(node)) return { expr: node.expression, iterable: true };
  if (ts.isForInStatement(node) || ts.isSwitchStatement(node)) return null;
  return undefined;
}

function classifySample(name, convertAll) {
  const { program, config } = createProgram(path.join(sampleDir(name), 'tsconfig.json'));
  const classifier = new Classifier(program.getTypeChecker());
  const counts = { statements: 0, functions: 0, control: zero(), expressions: zero() };
  for (const fn of convertedFunctions(program, convertAll || config.convert === 'all')) {
    counts.functions++;
    const plan = planFunction(fn.body, classifier);
    const visit = (node) => {
      if (node !== fn.body && (ts.isFunctionLike(node) || ts.isClassLike(node))) return;   // counted as their own function
      if (ts.isStatement(node) && !ts.isBlock(node)) counts.statements++;
      const subject = subjectOf(node);
      if (subject !== undefined) {
        const kind = subject === null ? 'static'
          : subject.iterable ? classifier.iterable(subject.expr) : classifier.expression(subject.expr);
        const converted = plan.converted.has(node);
        counts.control[converted && kind === 'static' ? 'jump' : kind]++;
      } else if (isLogical(node)) {
        const operand = ts.isBinaryExpression(node) ? node.left : ts.isConditionalExpression(node) ? node.condition : node.operand;
        counts.expressions[plan.expressions.has(node) ? classifier.expression(operand) : 'static']++;
      }
      ts.forEachChild(node, visit);
    };
    visit(fn.body);
  }
  return counts;
}

function zero() {
  return Object.fromEntries(CLASSES.map((c) => [c, 0]));
}

// ---------------------------------------------------------------------------------------------
// Report

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r, j) => {
    const line = r.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join('  ');
    return j === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
  }).join('\n');
}

const pct = (n, total) => (total === 0 ? '-' : `${((100 * n) / total).toFixed(0)}%`);

function printClassification(title, convertAll) {
  console.log(`${title}:\n`);
  const rows = [['sample', 'functions', 'statements', 'control: static', 'staged', 'dynamic', 'jump', 'logical: static', 'staged', 'dynamic']];
  const total = { functions: 0, statements: 0, control: zero(), expressions: zero() };
  const row = (label, c) => [label, c.functions, c.statements, ...CLASSES.map((k) => c.control[k]),
    ...CLASSES.slice(0, 3).map((k) => c.expressions[k])];
  for (const name of SAMPLES) {
    const c = classifySample(name, convertAll);
    rows.push(row(name, c));
    total.functions += c.functions;
    total.statements += c.statements;
    for (const k of CLASSES) {
      total.control[k] += c.control[k];
      total.expressions[k] += c.expressions[k];
    }
  }
  rows.push(row('total', total));
  const controlTotal = CLASSES.reduce((s, k) => s + total.control[k], 0);
  const exprTotal = CLASSES.reduce((s, k) => s + total.expressions[k], 0);
  rows.push(['share', '', '', ...CLASSES.map((k) => pct(total.control[k], controlTotal)),
    ...CLASSES.slice(0, 3).map((k) => pct(total.expressions[k], exprTotal))]);
  console.log(table(rows));
  console.log();
}

async function main() {
  const args = process.argv.slice(2);
  const runsArg = args.indexOf('--runs');
  const runs = runsArg >= 0 ? Number(args[runsArg + 1]) : 5;

  printClassification('Classification of conditions and iterables in the converted functions of samples/', false);
  printClassification('The same if every function of samples/ were converted ("convert": "all", main.ts files included)', true);
  console.log('control: if/while/do/for/for...of/for...in/switch statements; logical: && || ! ?: expressions;\n' +
    'jump: a static condition converted because a tensor-dependent break/continue/return leaves through it.\n');

  if (args.includes('--no-timing')) return;
  console.log(`Compile time of all ${SAMPLES.length} samples in one \`-b --force\` process, median of ${runs} runs:\n`);
  const { variants, times, cpu, inside } = await measureCompileTime(runs);
  const med = (series) => Object.fromEntries(Object.entries(series).map(([k, v]) => [k, median(v)]));
  const cpuMed = med(cpu);
  const wallMed = med(times);
  const timeRows = [['compiler', 'CPU ms', 'ratio', 'wall ms', 'ratio', 'CPU ms of each run']];
  for (const v of variants) {
    timeRows.push([v.label, cpuMed[v.key].toFixed(0), `${(cpuMed[v.key] / cpuMed.without).toFixed(2)}x`,
      wallMed[v.key].toFixed(0), `${(wallMed[v.key] / wallMed.without).toFixed(2)}x`, cpu[v.key].map((t) => t.toFixed(0)).join(' ')]);
  }
  console.log(table(timeRows));
  console.log('(medians; ratios are to tspc without the plugin)');
  console.log(`\nInside the transformer (timed variant): median ${median(inside).toFixed(0)} ms per tspc process ` +
    `(runs: ${inside.map((t) => t.toFixed(0)).join(' ')}), ${(100 * median(inside) / cpuMed.timed).toFixed(1)}% of its CPU time.`);
  console.log(`Load average during the runs: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores.`);
}

main().catch((error) => {
  console.error(error.stack ?? error);
  process.exitCode = 1;
});
