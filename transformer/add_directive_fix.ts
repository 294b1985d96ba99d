/**
 * The language service's quick fix for AG99103 and AG99104 (a Tensor condition, or a Tensor-returning
 * array predicate callback, in code that is not converted):
 * "Add 'use autograph'" as the first statement of the innermost function around the condition.
 * An arrow with an expression body gets a block (`{ 'use autograph'; return <expr>; }`), since a
 * directive needs a statement list.
 */
import type * as TS from 'typescript';
import { DIRECTIVE } from '../runtime/names';
import { ConvertibleFunction, isConvertibleFunction } from './directives';
import { ts } from './typescript';

export const ADD_DIRECTIVE_FIX = 'autographAddDirective';

export function addDirectiveFix(file: TS.SourceFile, start: number, end: number,
                                format: TS.FormatCodeSettings): TS.CodeFixAction | undefined {
  const fn = enclosingFunction(file, start, end);
  if (fn === undefined) return undefined;
  const directive = `'${DIRECTIVE}';`;
  const unit = format.convertTabsToSpaces === false ? '\t' : ' '.repeat(format.indentSize ?? 2);
  const newLine = format.newLineCharacter ?? '\n';
  const indent = indentationAt(file, fn.getStart(file));
  let change: TS.TextChange;
  if (ts.isBlock(fn.body)) {
    const first = fn.body.statements[0];
    change = first !== undefined
      ? { span: { start: first.getStart(file), length: 0 }, newText: `${directive}${newLine}${indentationAt(file, first.getStart(file))}` }
      : { span: { start: fn.body.getStart(file) + 1, length: 0 }, newText: `${newLine}${indent}${unit}${directive}${newLine}${indent}` };
  } else {
    const body = fn.body;
    const text = file.text.slice(body.getStart(file), body.end);
    change = {
      span: { start: body.getStart(file), length: body.end - body.getStart(file) },
      newText: `{${newLine}${indent}${unit}${directive}${newLine}${indent}${unit}return ${text};${newLine}${indent}}`,
    };
  }
  return {
    fixName: ADD_DIRECTIVE_FIX,
    description: `Add '${DIRECTIVE}'`,
    changes: [{ fileName: file.fileName, textChanges: [change] }],
  };
}

/** The innermost function whose body holds [start, end) (not its parameters' defaults alone). */
function enclosingFunction(file: TS.SourceFile, start: number, end: number): ConvertibleFunction | undefined {
  let found: ConvertibleFunction | undefined;
  const visit = (node: TS.Node): void => {
    if (start < node.getStart(file) || end > node.end) return;
    if (isConvertibleFunction(node) && start >= node.body.getStart(file)) found = node;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function indentationAt(file: TS.SourceFile, position: number): string {
  const line = file.getLineAndCharacterOfPosition(position).line;
  const lineStart = file.getPositionOfLineAndCharacter(line, 0);
  return /^[ \t]*/.exec(file.text.slice(lineStart, position))![0];
}
