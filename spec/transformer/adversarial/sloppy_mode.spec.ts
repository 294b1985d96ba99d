/**
 * Sloppy-mode JavaScript (a .js script, no 'use strict', alwaysStrict off): mapped `arguments`
 * aliasing the parameters across converted statements (whose bodies become closures), `this` of
 * a plain call, implicit globals, arguments.callee, duplicate parameter names. Converted with
 * every condition dynamic, each must behave as the plain transpiled script.
 */
import { expect } from 'chai';
import * as ts from 'typescript';
import { compile, formatDiagnostics, load } from '../../harness/compile';

const programs: Record<string, string> = {
  'a parameter assigned in a converted branch is seen through arguments, and back': `
function f(a, b) {
  var out = [];
  if (a > 0) { a = 10; out.push(arguments[0]); } else { arguments[0] = 'via arguments'; }
  out.push(a);
  while (b < 3) { arguments[1] = b + 2; out.push(b); }
  return out;
}
function run() { return [f(1, 0), f(-1, 5)]; }`,
  'aliasing through a for loop whose test and update read arguments': `
function f(n) {
  var seen = [];
  for (var i = 0; i < arguments[0]; i++) { if (i === 1) { n = n + 2; continue; } seen.push(n); }
  return [seen, n, arguments[0], arguments.length];
}
function run() { return [f(3), f(0)]; }`,
  'unmapped when there are defaults or rest: no aliasing in converted code': `
function f(a, b = 1) {
  if (a) { a = 'changed'; } else { arguments[0] = 'args'; }
  return [a, arguments[0], b];
}
function g(a, ...rest) {
  for (var k = 0; k < 2; k++) { if (k) { a = k; } }
  return [a, arguments[0], rest.length];
}
function run() { return [f(1), f(0), g(5, 6)]; }`,
  'arguments in an arrow inside a converted loop refers to the outer function': `
function f() {
  var out = [];
  for (var i = 0; i < arguments.length; i++) {
    var read = () => arguments[i];
    if (read() === 'skip') continue;
    out.push(read());
  }
  return out;
}
function run() { return f('a', 'skip', 'c'); }`,
  'this of a plain call is the global object inside converted statements': `
function f(x) {
  var kinds = [];
  if (x) { kinds.push(this === globalThis); } else { kinds.push(typeof this); }
  var i = 0;
  do { kinds.push(this === undefined); i++; } while (i < 1);
  return kinds;
}
function run() { return [f(1), f(0), f.call(5, 0)]; }`,
  'implicit globals assigned inside converted branches and loops': `
function f(x) {
  if (x) { adversarialImplicit1 = 'set in if'; }
  var n = 0;
  while (n < 2) { adversarialImplicit2 = n; n++; }
  var r = [typeof adversarialImplicit1, adversarialImplicit2];
  delete globalThis.adversarialImplicit1;
  delete globalThis.adversarialImplicit2;
  return r;
}
function run() { return [f(1), f(0)]; }`,
  'arguments.callee inside converted code': `
function fact(n) {
  if (n <= 1) { return 1; }
  var r = 1;
  while (n > 1) { r = r * n; n = n - 1; if (n === 2) return r * 2 === arguments.callee(2) * r ? r * 2 : -1; }
  return r;
}
function run() { return [fact(1), fact(5)]; }`,
  'duplicate parameter names: the last one wins, aliasing follows it': `
function f(a, a) {
  if (a) { a = a + 1; }
  return [a, arguments[0], arguments[1]];
}
function run() { return [f(1, 2), f(1, 0)]; }`,
  'a parameter named like a generated identifier, assigned through arguments': `
function f(vars_, if_body) {
  if (vars_) { arguments[1] = 'x'; } else { if_body = 'y'; }
  return [vars_, if_body, arguments[1]];
}
function run() { return [f(1, 'a'), f(0, 'b')]; }`,
};

function outcome(run: () => unknown): string {
  try {
    return JSON.stringify({ value: run() });
  } catch (error) {
    return JSON.stringify({ threw: error instanceof Error ? `${error.constructor.name}: ${error.message}` : error });
  }
}

describe('adversarial: sloppy-mode scripts', () => {
  const names = Object.keys(programs);
  const files: Record<string, string> = {};
  names.forEach((name, i) => { files[`sloppy${i}.js`] = `${programs[name]}\nmodule.exports = { run };\n`; });
  let result: ReturnType<typeof compile>;
  before(function () {
    this.timeout(30000);
    result = compile(files, { convert: 'all', forceDynamic: true }, { strict: false, alwaysStrict: false, sourceMap: false });
  });
  names.forEach((name, i) => {
    const file = `sloppy${i}.js`;
    it(name, () => {
      expect(formatDiagnostics(result.diagnostics.filter((d) => d.file?.fileName.endsWith(file)))).to.equal('');
      const js = result.js[file];
      expect(js).to.contain('ag__.');
      expect(js).not.to.contain('use strict');
      const plain = ts.transpileModule(files[file], { compilerOptions: { alwaysStrict: false, module: ts.ModuleKind.CommonJS } }).outputText;
      expect(outcome(() => load(js).run()), js).to.equal(outcome(() => load(plain).run()));
    });
  });
});
