/**
 * `inspect(...).dot()`: the staged graph as Graphviz DOT, If/While bodies as clusters, control-flow
 * nodes labelled with the user's source line; rendered with `dot` where Graphviz is installed.
 */
import * as tf from '@tensorflow/tfjs';
import { expect } from 'chai';
import { spawnSync } from 'child_process';
import { stage } from '../../backends/stage';
import { collatzSteps, signedSum } from './programs';

const hasGraphviz = spawnSync('dot', ['-V']).status === 0;

describe('stage(): DOT export', () => {
  it('draws a While with an If inside as nested clusters labelled with source lines', () => {
    const staged = stage(collatzSteps);
    const dot = staged.inspect(tf.scalar(27)).dot();
    expect(dot).to.match(/^digraph "collatzSteps" \{/);
    expect(dot).to.contain('"test of %');
    expect(dot).to.contain('(collatz.ts:5:3)');
    const bodyStart = dot.indexOf('label="body of %');
    const thenAt = dot.indexOf('label="then of %');
    expect(bodyStart).to.be.greaterThan(-1);
    expect(thenAt, 'the If is drawn inside the While body cluster').to.be.greaterThan(bodyStart);
    expect(dot).to.contain('(collatz.ts:6:5)');
    expect(dot).to.match(/label="Mod\\nfloat32\[\]"/);
    // Every edge joins two declared nodes.
    const declared = new Set([...dot.matchAll(/^\s*(\w+) \[label=/gm)].map((m) => m[1]));
    for (const [, from, to] of dot.matchAll(/^\s*(\w+) -> (\w+)/gm)) {
      expect(declared.has(from), from).to.equal(true);
      expect(declared.has(to), to).to.equal(true);
    }
  });

  it('renders with Graphviz', function () {
    if (!hasGraphviz) {
      console.log('      (skipped: Graphviz `dot` is not installed; apt-get install graphviz)');
      this.skip();
    }
    for (const [f, arg] of [[collatzSteps, tf.scalar(27)], [signedSum, tf.tensor1d([1, -4])]] as const) {
      const dot = stage(f as (x: tf.Tensor) => tf.Tensor).inspect(arg).dot();
      const svg = spawnSync('dot', ['-Tsvg'], { input: dot, encoding: 'utf8' });
      expect(svg.status, svg.stderr).to.equal(0);
      expect(svg.stderr).to.equal('');
      expect(svg.stdout).to.contain('<svg');
    }
  });
});
