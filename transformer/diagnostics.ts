/**
 * The one table of diagnostics the transformer reports. Codes are stable (users search for them);
 * messages say what to change. A ConversionError raised anywhere during the conversion of a
 * function becomes one diagnostic at the offending node (file_transformer.ts); any other exception
 * is a bug in the transformer and becomes an InternalError diagnostic on the function, which stays
 * as written: the compiler never crashes. Warnings (severity 'warning') come back from the plan,
 * and from the walk over code that is not converted (unconverted_conditions.ts).
 */
import type * as TS from 'typescript';
import { ts } from './typescript';

export const Diagnostics = {
  YieldInConvertedStatement: {
    code: 99001,
    message: "'yield' inside a tensor-dependent statement cannot be converted: move the tensor condition out of the generator, or give the condition a non-Tensor type.",
  },
  AwaitInConvertedStatement: {
    code: 99002,
    message: "'await' inside a tensor-dependent statement cannot be converted: await before the statement, or give the condition a non-Tensor type.",
  },
  TensorSwitch: {
    code: 99003,
    message: "A switch on a Tensor cannot be converted: use if / else if with tensor comparisons (e.g. x.equal(1)).",
  },
  TensorComparator: {
    code: 99008,
    message: "This sort comparator returns a Tensor, but sort needs a JS number for every pair (a Tensor object compares as NaN, leaving the order unchanged): sort in the graph (tf.topk of the keys, then tf.gather), or compare JS numbers.",
  },
  CaseDeclarationAcrossClauses: {
    code: 99007,
    message: "This switch must be converted (a tensor-dependent statement inside it leaves it), which gives each case clause its own block: this declaration, made directly in one case clause, is used outside it. Wrap the clause's statements in { }, or declare it before the switch.",
  },
  ForAwaitInConvertedStatement: {
    code: 99005,
    message: "'for await' cannot be converted when its body holds a tensor-dependent jump: move the tensor condition out of the loop.",
  },
  WithStatement: {
    code: 99006,
    message: "'with' statements cannot be converted: their scope is dynamic. Remove the 'with' or the 'use autograph' directive.",
  },
  TensorValueAsBoolean: {
    code: 99101,
    message: "This operator yields a Tensor at run time, but TypeScript types it as boolean: a later 'if' on it would see a Tensor (always truthy). Use it directly as a condition, or store it in a variable typed tf.Tensor.",
  },
  OptionalTensorCondition: {
    code: 99102,
    message: "This condition is a Tensor or null/undefined: it is converted to a test of the tensor's value (a non-scalar tensor is an error at run time). For a presence test write 'x !== undefined' (or '!= null').",
  },
  UnconvertedTensorCondition: {
    code: 99103,
    message: "This condition is a Tensor object, which JavaScript always treats as true (its value is never read): the code around it is not converted.",
  },
  UnconvertedTensorPredicate: {
    code: 99104,
    message: "The callback given to this array method returns a Tensor object, which the method reads as true (its value is never read): the code around it is not converted.",
  },
  InternalError: {
    code: 99900,
    message: "Internal error while converting this function; it was left unconverted. Please report this with the function's source.",
  },
} as const;

export type DiagnosticKey = keyof typeof Diagnostics;

/** A problem in the user's code that prevents conversion; becomes a diagnostic at `node`. */
export class ConversionError extends Error {
  constructor(readonly key: DiagnosticKey, readonly node: TS.Node, readonly detail?: string,
              readonly severity: 'error' | 'warning' = 'error') {
    super(Diagnostics[key].message + (detail ? ` ${detail}` : ''));
  }
}

export function createDiagnostic(error: ConversionError): TS.Diagnostic {
  const category = error.severity === 'warning' ? ts.DiagnosticCategory.Warning : ts.DiagnosticCategory.Error;
  const sourceFile = error.node.getSourceFile();
  const start = error.node.getStart(sourceFile);
  return {
    category,
    code: Diagnostics[error.key].code,
    file: sourceFile,
    start,
    length: error.node.getEnd() - start,
    messageText: `autograph-ts: ${error.message}`,
    source: 'autograph-ts',
  };
}
