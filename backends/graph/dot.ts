/**
 * A staged graph as Graphviz DOT, for a picture of what stage() recorded: one box per node,
 * labelled with its op, output types and (where recorded) the user's source line; the branches of
 * an If and the test and body of a While are clusters beside their node, with dashed edges for the
 * values that flow into and out of them.
 */
import { Graph, Node, nodeInputs, Program, specText, ValueRef } from './graph';

export function graphToDot(program: Program, name = 'staged'): string {
  const out: string[] = [
    `digraph ${quote(name)} {`,
    '  rankdir=TB; compound=true;',
    '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=9, color="#555555"];',
  ];
  let clusters = 0;

  /** Writes graph g's nodes (ids prefixed with `prefix`) and returns the DOT id of each node. */
  const emitGraph = (g: Graph, prefix: string, indent: string): string[] => {
    const ids = g.nodes.map((_, i) => `${prefix}n${i}`);
    const source = (ref: ValueRef): string => ids[ref.node];
    g.nodes.forEach((node, i) => {
      out.push(`${indent}${ids[i]} [label=${quote(label(program, node))}${style(node)}];`);
      for (const ref of nodeInputs(node)) {
        out.push(`${indent}${source(ref)} -> ${ids[i]}${ref.output > 0 ? ` [taillabel="${ref.output}"]` : ''};`);
      }
      const sub = (title: string, graph: Graph, params: ValueRef[], color: string): void => {
        const cluster = `cluster_${clusters++}`;
        out.push(`${indent}subgraph ${cluster} {`, `${indent}  label=${quote(title)}; style="rounded,filled"; fillcolor="${color}"; fontname="Helvetica"; fontsize=10;`);
        const inner = emitGraph(graph, `${cluster}_`, `${indent}  `);
        const ret = `${cluster}_return`;
        out.push(`${indent}  ${ret} [label=${quote(`return ${graph.results.length}`)}, shape=plaintext, style=""];`);
        for (const r of graph.results) out.push(`${indent}  ${inner[r.node]} -> ${ret};`);
        out.push(`${indent}}`);
        graph.nodes.forEach((n, k) => {
          if (n.kind === 'Input' && params[n.param] !== undefined) {
            out.push(`${indent}${source(params[n.param])} -> ${inner[k]} [style=dashed];`);
          }
        });
        out.push(`${indent}${ret} -> ${ids[i]} [style=dashed, ltail=${cluster}];`);
      };
      if (node.kind === 'If') {
        const captures = node.inputs.slice(1);
        sub(`then of %${i}${node.origin ? ` (${node.origin})` : ''}`, node.then, captures, '#eef6ee');
        sub(`else of %${i}`, node.else, captures, '#f6eeee');
      } else if (node.kind === 'While') {
        sub(`test of %${i}${node.origin ? ` (${node.origin})` : ''}`, node.cond, node.inputs, '#eeeef8');
        sub(`body of %${i}`, node.body, node.inputs, '#f8f4e8');
      }
    });
    const ret = `${prefix}return`;
    if (prefix === '') {
      out.push(`${indent}${ret} [label=${quote(`results (${g.results.length})`)}, shape=oval];`);
      for (const r of g.results) out.push(`${indent}${source(r)} -> ${ret};`);
    }
    return ids;
  };
  emitGraph(program.graph, '', '  ');
  program.functions?.forEach((f, k) => {
    out.push(`  subgraph cluster_f${k} {`, `    label=${quote(`function f${k}`)}; style="rounded,dashed"; fontname="Helvetica"; fontsize=10;`);
    emitGraph(f, `f${k}_`, '    ');
    out.push('  }');
  });
  out.push('}');
  return out.join('\n') + '\n';
}

function label(program: Program, node: Node): string {
  const types = node.outputs.map(specText).join(', ');
  const origin = 'origin' in node && node.origin ? `\n${node.origin}` : '';
  const head = ((): string => {
    switch (node.kind) {
      case 'Input': return `Input #${node.param}`;
      case 'Constant': {
        const t = program.constants[node.constant];
        return `Constant c${node.constant}${t && t.size === 1 && !t.isDisposed ? ` = ${t.dataSync()[0]}` : ''}`;
      }
      case 'ReadVariable': return `ReadVariable ${program.variables[node.variable]?.name ?? node.variable}`;
      case 'AssignVariable': return `AssignVariable ${program.variables[node.variable]?.name ?? node.variable}`;
      case 'Kernel': return node.op;
      case 'Random': return `Random ${node.op}`;
      case 'Print': return 'Print';
      case 'Check': return `Check: ${program.errors[node.error]?.name ?? 'Error'}`;
      case 'If': return 'If';
      case 'While': return `While (${node.loopVars} loop vars)`;
      case 'List': return node.op;
      case 'Call': return `Call f${node.function}`;
    }
  })();
  return `${head}${types ? `\n${types}` : ''}${origin}`;
}

function style(node: Node): string {
  switch (node.kind) {
    case 'Input': return ', shape=invhouse, fillcolor="#e8f0ff"';
    case 'Constant': return ', fillcolor="#f0f0f0"';
    case 'ReadVariable':
    case 'AssignVariable': return ', fillcolor="#fff4d6"';
    case 'If':
    case 'While':
    case 'Call': return ', shape=diamond, style=filled, fillcolor="#dde8ff"';
    case 'Print':
    case 'Check':
    case 'Random': return ', fillcolor="#ffe6e6"';
    case 'List': return ', shape=folder, fillcolor="#e6f6e6"';
    default: return '';
  }
}

const quote = (s: string): string => JSON.stringify(s);
