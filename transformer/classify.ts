/**
 * The one place that decides, by asking the checker, how a predicate or iterable is converted:
 *   static  – its type cannot be a Tensor (boolean, number, string, arrays, ...): emitted unchanged;
 *   staged  – it is a Tensor (or a TensorRange): becomes an operator call;
 *   dynamic – any, unknown, type parameters, unions that may hold a Tensor: an operator call, which
 *             dispatches on the value at run time.
 * Results are memoized per original node. The two entry points are `statement` (a control-flow
 * statement's condition, iterable or discriminant) and `expression` (an expression in condition
 * position); the plan (analysis/plan.ts) and the explanations (explain.ts) use only those, and the
 * test-only `forceDynamic` is applied in one place, `forced`.
 */
import type * as TS from 'typescript';
import { ts } from './typescript';
import { ARRAY_PREDICATES, type ArrayPredicate, NUMBER_ARGUMENT_OPS, numberArgumentIndex } from '../runtime/names';

export type Classification = 'static' | 'staged' | 'dynamic';

/** What a control-flow statement tests, and how that is classified. */
export interface StatementClassification {
  /** The condition, iterable, object (for...in) or discriminant. */
  tested: TS.Expression;
  role: 'condition' | 'iterable' | 'keys' | 'discriminant';
  kind: Classification;
  /**
   * Whether `kind` alone makes the statement an operator call when it is not static: if, while,
   * do-while, a for with a condition, for...of (not for await). A for...in or a switch is
   * converted only when a lowered jump must leave it (analysis/plan.ts).
   */
  convertible: boolean;
}

const TENSOR_MEMBERS = ['dataSync', 'dtype', 'shape', 'rank', 'dataId'];

/** tfjs functions whose number arguments are JS values, not tensors (the values of a new tensor). */
/** Of those, the ones whose values argument may hold a staged number, and its position. */
const TFJS_VALUES_ARGUMENT = new Map([['scalar', 0], ['tensor', 0], ['tensor1d', 0], ['tensor2d', 0], ['tensor3d', 0],
  ['tensor4d', 0], ['tensor5d', 0], ['tensor6d', 0], ['fill', 1]]);
const TFJS_FROM_JS_VALUES = new Set(['scalar', 'tensor', 'tensor1d', 'tensor2d', 'tensor3d', 'tensor4d', 'tensor5d', 'tensor6d',
  'fill', 'range', 'linspace', 'buffer', 'complex']);

export class Classifier {
  private readonly typeCache = new Map<TS.Type, Classification>();
  private readonly nodeCache = new Map<TS.Node, Classification>();

  /** `forceDynamic` (a testing aid) classifies every predicate and iterable as dynamic, so that
   * all control flow goes through the operators. */
  constructor(private readonly checker: TS.TypeChecker, private readonly forceDynamic = false,
              private readonly program?: TS.Program) {}

  /** The classification of a control-flow statement's tested expression; undefined for a
   * statement that tests nothing (not control flow, or `for (;;)`). */
  statement(node: TS.Node): StatementClassification | undefined {
    if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) {
      return { tested: node.expression, role: 'condition', kind: this.expression(node.expression), convertible: true };
    }
    if (ts.isForStatement(node)) {
      return node.condition === undefined ? undefined
        : { tested: node.condition, role: 'condition', kind: this.expression(node.condition), convertible: true };
    }
    if (ts.isForOfStatement(node)) {
      return { tested: node.expression, role: 'iterable', kind: this.iterable(node.expression), convertible: node.awaitModifier === undefined };
    }
    if (ts.isForInStatement(node)) {
      return { tested: node.expression, role: 'keys', kind: this.iterable(node.expression), convertible: false };
    }
    if (ts.isSwitchStatement(node)) {
      return { tested: node.expression, role: 'discriminant', kind: this.expression(node.expression), convertible: false };
    }
    return undefined;
  }

  /** An expression in condition position (of a statement, or the operand of `!`, `&&`, `||`,
   * `?:`, an assert). */
  expression(expr: TS.Expression): Classification {
    return this.forced(this.predicate(expr));
  }

  /** The test-only `forceDynamic`: every static classification becomes dynamic, so that all
   * control flow goes through the operators; staged stays staged. */
  private forced(kind: Classification): Classification {
    return this.forceDynamic && kind !== 'staged' ? 'dynamic' : kind;
  }

  /** A condition: also looks through `!`, `&&`, `||`, `?:`, parentheses and commas, whose own
   * static types hide a Tensor operand (`!t` is typed boolean, `t && true` is typed true). */
  private predicate(expr: TS.Expression): Classification {
    const cached = this.nodeCache.get(expr);
    if (cached !== undefined) return cached;
    const result = this.computePredicate(expr);
    this.nodeCache.set(expr, result);
    return result;
  }

  /** A condition typed `Tensor | null | undefined`: in TypeScript `if (t)` usually means "is it
   * there", while the converted statement tests the tensor's value. */
  isOptionalTensor(expr: TS.Expression): boolean {
    const type = this.checker.getTypeAtLocation(expr);
    if (!type.isUnion()) return false;
    const nullish = type.types.filter((t) => t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void));
    const rest = type.types.filter((t) => !nullish.includes(t));
    return nullish.length > 0 && rest.length > 0 && rest.every((t) => this.type(t) === 'staged');
  }

  /** `assert(c, msg)` / `assert.ok(c)` from node:assert, or `console.assert(c, ...data)`,
   * recognised through the declarations the checker resolves, never by name alone. */
  assertKind(call: TS.CallExpression): 'node' | 'console' | undefined {
    let symbol = this.checker.getSymbolAtLocation(call.expression);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const name = symbol?.getName();
    for (const decl of symbol?.getDeclarations() ?? []) {
      const file = decl.getSourceFile().fileName.replace(/\\/g, '/');
      if (/@types\/node\/(assert|assert\/strict)\.d\.ts$/.test(file) && (name === 'assert' || name === 'ok' || name === 'strict')) return 'node';
      if (name === 'assert' && (/@types\/node\/console\.d\.ts$/.test(file) || /\/lib\.dom\.d\.ts$/.test(file))) return 'console';
    }
    return undefined;
  }

  /** Whether the checker types `name` as an array whose elements may be tensors (`Tensor[]`,
   * `tf.Scalar[]`, `any[]`, ...): an array a staged loop may grow into a list value. */
  mayHoldTensors(name: TS.Node): boolean {
    const type = this.checker.getTypeAtLocation(name);
    const checker = this.checker as TS.TypeChecker & { isArrayType?(t: TS.Type): boolean };
    if (checker.isArrayType?.(type) !== true) return false;
    const [element] = this.checker.getTypeArguments(type as TS.TypeReference);
    return element !== undefined && this.type(element) !== 'static';
  }

  /** Whether the checker types `name` as an array of tensors (`Tensor[]`, `tf.Scalar[]`: its elements staged, not
   * any, a union or a type parameter, which may be JS numbers). */
  holdsTensors(name: TS.Node): boolean {
    const type = this.checker.getTypeAtLocation(name);
    const checker = this.checker as TS.TypeChecker & { isArrayType?(t: TS.Type): boolean };
    if (checker.isArrayType?.(type) !== true) return false;
    const [element] = this.checker.getTypeArguments(type as TS.TypeReference);
    return element !== undefined && this.type(element) === 'staged';
  }

  /** Whether the checker types `name` as an array of records (`{ v: Tensor; k: number }[]`, an
   * interface or type literal, not a class, a function or an array): an array a staged statement may
   * grow into a list of records, one graph list per field (backends/staging/record_lists.ts). */
  holdsRecords(name: TS.Node): boolean {
    const type = this.checker.getTypeAtLocation(name);
    const checker = this.checker as TS.TypeChecker & { isArrayType?(t: TS.Type): boolean; isTupleType?(t: TS.Type): boolean };
    if (checker.isArrayType?.(type) !== true || this.tensorType() === undefined) return false;
    const [element] = this.checker.getTypeArguments(type as TS.TypeReference);
    if (element === undefined || (element.flags & ts.TypeFlags.Object) === 0 || checker.isArrayType?.(element) === true ||
        checker.isTupleType?.(element) === true || ((element.symbol?.flags ?? 0) & ts.SymbolFlags.Class) !== 0) return false;
    return element.getCallSignatures().length === 0 && element.getConstructSignatures().length === 0 &&
      element.getProperties().length > 0;
  }

  /** Whether the checker types `name` as an array of JS numbers or of booleans (`number[]`,
   * `boolean[]`): an array a staged statement may grow into a list of promoted scalars. */
  holdsNumbersOrBooleans(name: TS.Node): boolean {
    const type = this.checker.getTypeAtLocation(name);
    const checker = this.checker as TS.TypeChecker & { isArrayType?(t: TS.Type): boolean };
    if (checker.isArrayType?.(type) !== true || this.tensorType() === undefined) return false;
    const [element] = this.checker.getTypeArguments(type as TS.TypeReference);
    return element !== undefined && (element.flags & ts.TypeFlags.Never) === 0 && isNumberOrBoolean(element);
  }

  /**
   * Whether `receiver` may be an array whose contents a mutator method (`push`, `fill`, ...)
   * changes in place: an array, tuple or typed array (a number index), or a type the checker
   * cannot pin down (any, unknown, a type parameter, a synthesized node). Not the `tf` namespace
   * (`tf.fill(...)`), a Tensor or another object without a number index.
   */
  mayBeArray(receiver: TS.Expression): boolean {
    const original = ts.getOriginalNode(receiver);
    if (original.pos < 0 || !ts.isExpression(original)) return true;
    return this.possiblyArray(this.checker.getTypeAtLocation(original));
  }

  private possiblyArray(type: TS.Type): boolean {
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeParameter)) return true;
    if (type.isUnionOrIntersection()) return type.types.some((t) => this.possiblyArray(t));
    return this.checker.getIndexInfoOfType(type, ts.IndexKind.Number) !== undefined;
  }

  /** Whether a variable or target's type may hold a Tensor (not static): a tensor stored there is no JS number misread. */
  mayHoldTensor(target: TS.Node): boolean {
    if (target.pos < 0 || target.parent === undefined) return false;
    return this.type(this.checker.getTypeAtLocation(target)) !== 'static';
  }

  /** Whether the checker types an expression as boolean (while it may yield a Tensor). */
  isBooleanTyped(expr: TS.Expression): boolean {
    return (this.checker.getTypeAtLocation(expr).flags & ts.TypeFlags.BooleanLike) !== 0;
  }

  /**
   * Whether `name` is an array of numbers or of booleans (`number[]`, `boolean[]`, a tuple of
   * them, or `any[]`) that a staged statement may carry element by element (promoted, backends' composites).
   */
  isPromotableArray(name: TS.Identifier): boolean {
    if (name.pos < 0 || name.parent === undefined || this.tensorType() === undefined) return false;
    const type = this.checker.getTypeAtLocation(name);
    const element = this.checker.getIndexInfoOfType(type, ts.IndexKind.Number)?.type;
    if (element === undefined || type.getCallSignatures().length > 0) return false;
    // `new Array(k).fill(0)` is an any[]: its elements may be numbers, so they are treated as such
    // (the operators are exact on whatever else they hold; "any → dynamic").
    if ((element.flags & ts.TypeFlags.Any) !== 0) return true;
    return isNumberOrBoolean(element);
  }

  /**
   * Whether `name` is a variable declared inside `fn` whose type is an object (not a tensor, not a
   * function) with a number or boolean property (`{ score: Tensor; index: number }`), with tfjs in
   * the program: assigned whole under a tensor condition, its JS numbers are promoted.
   */
  hasPromotableFields(name: TS.Identifier, fn: TS.Node): boolean {
    if (name.pos < 0 || name.parent === undefined || this.tensorType() === undefined) return false;
    const symbol = this.checker.getSymbolAtLocation(name);
    const decl = symbol?.valueDeclaration;
    if (symbol === undefined || decl === undefined || !ts.isVariableDeclaration(decl)) return false;
    if (decl.getSourceFile() !== fn.getSourceFile() || decl.pos < fn.pos || decl.end > fn.end) return false;
    const type = this.checker.getNonNullableType(this.checker.getTypeOfSymbolAtLocation(symbol, decl));
    const isTensor = this.checker.getPropertyOfType(type, 'dataSync') !== undefined;
    if ((type.flags & ts.TypeFlags.Object) === 0 || type.getCallSignatures().length > 0 || isTensor) return false;
    return type.getProperties().some((p) => isNumberOrBoolean(this.checker.getTypeOfSymbolAtLocation(p, decl)));
  }

  /**
   * Whether `name` is a variable declared inside `fn` (a parameter or a local) whose declared type
   * is number or boolean: a value a staged loop may promote to a tensor (analysis/promotion.ts).
   */
  isPromotableVariable(name: TS.Identifier, fn: TS.Node): boolean {
    const symbol = this.checker.getSymbolAtLocation(name);
    const decl = symbol?.valueDeclaration;
    if (symbol === undefined || decl === undefined || !(ts.isVariableDeclaration(decl) || ts.isParameter(decl))) return false;
    if (decl.getSourceFile() !== fn.getSourceFile() || decl.pos < fn.pos || decl.end > fn.end) return false;
    if (isNumberOrBoolean(this.checker.getTypeOfSymbolAtLocation(symbol, decl))) return true;
    // `let level;` (an evolving any): promotable when every value assigned to it is a number or a boolean.
    return ts.isVariableDeclaration(decl) && decl.type === undefined && decl.initializer === undefined && this.assignsOnlyNumbers(symbol, fn);
  }

  /** Whether `symbol` is assigned at least once in `fn`, and only numbers or booleans (`x = 2`, `x += 1`, `x++`). */
  private assignsOnlyNumbers(symbol: TS.Symbol, fn: TS.Node): boolean {
    let assigned = false;
    let other = false;
    const visit = (node: TS.Node): void => {
      if (other) return;
      if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
          node.operatorToken.kind <= ts.SyntaxKind.LastAssignment && ts.isIdentifier(node.left) &&
          this.checker.getSymbolAtLocation(node.left) === symbol) {
        assigned = true;
        if (!isNumberOrBoolean(this.checker.getTypeAtLocation(node.right))) other = true;
      }
      ts.forEachChild(node, visit);
    };
    visit(fn);
    return assigned && !other;
  }

  /**
   * Whether a name (or `this`) read by a converted statement may be an object whose fields code
   * the statement calls can change: an instance of a class or a plain object type of the user's
   * program (declared outside node_modules and the default libraries), or a type the checker
   * cannot pin down. Not a Tensor, an array, a function, a module namespace or a tfjs object.
   */
  mayHaveFields(name: TS.Expression): boolean {
    if (name.pos < 0 || name.parent === undefined) return false;
    if (ts.isIdentifier(name)) {
      const symbol = this.checker.getSymbolAtLocation(name);
      if (symbol === undefined || (symbol.flags & (ts.SymbolFlags.Alias | ts.SymbolFlags.Module | ts.SymbolFlags.Enum |
          ts.SymbolFlags.Class | ts.SymbolFlags.Function)) !== 0) return false;
    }
    return this.userObjectType(this.checker.getTypeAtLocation(name));
  }

  /** Whether a name refers to a variable declared at a module's top level (not in a function or class): the object it
   * holds outlives any call of a function that reads it. */
  isModuleBinding(name: TS.Identifier): boolean {
    if (name.pos < 0 || name.parent === undefined) return false;
    const decl = this.checker.getSymbolAtLocation(name)?.valueDeclaration;
    if (decl === undefined || !ts.isVariableDeclaration(decl)) return false;
    for (let node: TS.Node | undefined = decl.parent; node !== undefined; node = node.parent) {
      if (ts.isSourceFile(node)) return true;
      if (ts.isFunctionLike(node) || ts.isClassLike(node) || ts.isBlock(node) || ts.isModuleBlock(node)) return false;
    }
    return false;
  }

  /** Whether a control-flow statement tests a value that may be a tensor (it is converted wherever its function is). */
  isStagedStatement(node: TS.Statement): boolean {
    const tested = this.statement(node);
    return tested !== undefined && tested.convertible && tested.kind !== 'static';
  }

  /** Whether a node (a destructured name) is typed a number or a boolean. */
  isNumberOrBooleanNode(node: TS.Node): boolean {
    return node.pos >= 0 && node.parent !== undefined && isNumberOrBoolean(this.checker.getTypeAtLocation(node));
  }

  /** Whether a call's value is typed a number or a boolean (a JS value a promoted tensor may stand for). */
  givesNumberOrBoolean(call: TS.CallExpression): boolean {
    return call.pos >= 0 && call.parent !== undefined && isNumberOrBoolean(this.checker.getTypeAtLocation(call));
  }

  /**
   * Whether a name read by a converted statement is an array of the user's objects (`callbacks:
   * Callback[]`): code the statement calls may change its elements' fields (`for (const cb of
   * callbacks) cb.onBatchEnd(...)`), so the elements are observed like an object the statement reads.
   */
  holdsObjectsWithFields(name: TS.Expression): boolean {
    if (name.pos < 0 || name.parent === undefined) return false;
    const type = this.checker.getTypeAtLocation(name);
    const element = this.checker.getIndexInfoOfType(type, ts.IndexKind.Number)?.type;
    return element !== undefined && (element.flags & ts.TypeFlags.Any) === 0 && this.userObjectType(element);
  }

  private userObjectType(type: TS.Type): boolean {
    if (type.isUnion()) return type.types.some((t) => this.userObjectType(t));
    // `this` in a method: the polymorphic this type, constrained by the class.
    if (type.flags & ts.TypeFlags.TypeParameter) {
      const constraint = this.checker.getBaseConstraintOfType(type);
      return constraint !== undefined && constraint !== type && this.userObjectType(constraint);
    }
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
    if (!(type.flags & ts.TypeFlags.Object) || type.getCallSignatures().length > 0) return false;
    if (this.checker.getIndexInfoOfType(type, ts.IndexKind.Number) !== undefined || this.type(type) !== 'static') return false;
    const declarations = (type.getSymbol() ?? type.aliasSymbol)?.getDeclarations() ?? [];
    return declarations.length > 0 && declarations.every((d) => {
      const file = d.getSourceFile();
      return !this.program?.isSourceFileDefaultLibrary(file) && !/[\\/]node_modules[\\/]/.test(file.fileName);
    });
  }

  /**
   * Whether a property chain is a number or boolean field of an object of the user's types
   * (`cb.stopTraining`, `this.wait`; not `x.size` of a Tensor, `xs.length`, `tf.x`): one that code
   * the function calls may have promoted to a tensor (analysis/promotion.ts).
   */
  isUserField(access: TS.PropertyAccessExpression): boolean {
    return this.tensorType() !== undefined && this.isPromotableProperty(access) && this.mayHaveFields(access.expression);
  }

  /**
   * Whether a property chain (`this.wait`, `state.best`) is a field the checker types as a number
   * or a boolean, on an object that is not a module namespace (`tf.x` is not state): a staged
   * conditional or loop that changes it carries it as a promoted tensor, like a local counter.
   */
  isPromotableProperty(access: TS.PropertyAccessExpression): boolean {
    if (access.pos < 0 || access.parent === undefined) return false;
    let root: TS.Expression = access;
    // (Through element accesses too: `list.callbacks[0].model.stopTraining`, promotable by node.)
    while (ts.isPropertyAccessExpression(root) || ts.isElementAccessExpression(root) || ts.isNonNullExpression(root) ||
           ts.isParenthesizedExpression(root)) root = root.expression;
    if (ts.isIdentifier(root)) {
      const symbol = this.checker.getSymbolAtLocation(root);
      if (symbol === undefined || (symbol.flags & (ts.SymbolFlags.Alias | ts.SymbolFlags.Module | ts.SymbolFlags.Enum)) !== 0) return false;
    } else if (root.kind !== ts.SyntaxKind.ThisKeyword) {
      return false;
    }
    // A declared property, or one of an index signature (`Record<string, number>`: no symbol).
    const symbol = this.checker.getSymbolAtLocation(access.name);
    if (symbol !== undefined && (symbol.flags & ts.SymbolFlags.Property) === 0) return false;
    return isNumberOrBoolean(this.checker.getTypeAtLocation(access));
  }

  /**
   * Whether `name`, read in the nested function `fn`, is a number or boolean variable of an
   * enclosing function that a loop there assigns, where that loop may be staged (its condition,
   * or an if inside it, is not static): a counter that may hold a promoted tensor when `fn` runs.
   */
  isCapturedCounter(name: TS.Identifier, fn: TS.Node): boolean {
    const owner = this.enclosingOwner(name, fn);
    if (owner === undefined) return false;
    const symbol = this.checker.getSymbolAtLocation(name)!;
    let cached = this.capturedCounters.get(symbol);
    if (cached === undefined) {
      cached = this.isPromotableVariable(name, owner) && this.assignedInStagedLoop(symbol, owner);
      this.capturedCounters.set(symbol, cached);
    }
    return cached;
  }

  /**
   * The enclosing function that declares the variable or parameter `name` reads in the nested
   * function `fn` (undefined for `fn`'s own locals, globals, imports and other files).
   */
  enclosingOwner(name: TS.Identifier, fn: TS.Node): TS.Node | undefined {
    const decl = this.checker.getSymbolAtLocation(name)?.valueDeclaration;
    if (decl === undefined || !(ts.isVariableDeclaration(decl) || ts.isParameter(decl))) return undefined;
    if (decl.getSourceFile() !== fn.getSourceFile() || (decl.pos >= fn.pos && decl.end <= fn.end)) return undefined;
    let owner: TS.Node | undefined = decl.parent;
    while (owner !== undefined && !ts.isFunctionLike(owner)) owner = owner.parent;
    return owner === undefined || fn.pos < owner.pos || fn.end > owner.end ? undefined : owner;
  }

  /**
   * Whether `name`, read in the nested function `fn`, is an array variable of an enclosing function
   * that may become a list there (a `let`/`const` made from an array literal, typed as possibly
   * holding tensors: the shape of the plan's newLists): its `length` may be an int32 tensor when
   * `fn` runs.
   */
  isCapturedList(name: TS.Identifier, fn: TS.Node): boolean {
    const decl = this.checker.getSymbolAtLocation(name)?.valueDeclaration;
    if (decl === undefined || !ts.isVariableDeclaration(decl) || decl.initializer === undefined) return false;
    if (decl.getSourceFile() !== fn.getSourceFile() || (decl.pos >= fn.pos && decl.end <= fn.end)) return false;
    let init = decl.initializer;
    while (ts.isParenthesizedExpression(init) || ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
    if (!ts.isArrayLiteralExpression(init) || !ts.isVariableDeclarationList(decl.parent) ||
        (decl.parent.flags & ts.NodeFlags.BlockScoped) === 0) return false;
    let owner: TS.Node | undefined = decl.parent;
    while (owner !== undefined && !ts.isFunctionLike(owner)) owner = owner.parent;
    return owner !== undefined && (this.mayHoldTensors(decl.name) || this.holdsNumbersOrBooleans(decl.name) ||
      this.holdsRecords(decl.name));
  }

  private readonly capturedCounters = new Map<TS.Symbol, boolean>();
  private readonly stagingBodies = new Map<TS.Node, boolean>();

  /** Whether `node` (a loop, or a function body) holds a statement whose test is not static. */
  private mayStage(node: TS.Node): boolean {
    let staged = false;
    const visit = (n: TS.Node): void => {
      if (staged || (n !== node && (ts.isFunctionLike(n) || ts.isClassLike(n)))) return;
      const tested = this.statement(n);
      if (tested !== undefined && tested.kind !== 'static') staged = true;
      ts.forEachChild(n, visit);
    };
    visit(node);
    return staged;
  }

  private assignedInStagedLoop(symbol: TS.Symbol, owner: TS.Node): boolean {
    const maybeStaged = (loop: TS.Node): boolean => this.mayStage(loop);
    let found = false;
    const visit = (n: TS.Node, loop: TS.Node | undefined): void => {
      if (found || (n !== owner && (ts.isFunctionLike(n) || ts.isClassLike(n)))) return;
      const inLoop = loop ?? (ts.isIterationStatement(n, false) ? n : undefined);
      if (inLoop !== undefined) {
        const target = ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
          n.operatorToken.kind <= ts.SyntaxKind.LastAssignment ? n.left
          : (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) &&
            (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken) ? n.operand : undefined;
        if (target !== undefined && ts.isIdentifier(target) && this.checker.getSymbolAtLocation(target) === symbol &&
            maybeStaged(inLoop)) {
          found = true;
          return;
        }
      }
      ts.forEachChild(n, (c) => visit(c, inLoop));
    };
    visit(owner, undefined);
    return found;
  }

  /**
   * Whether a call goes to a function of the project's own sources (converted too, when a
   * converted function calls it) typed to return a number or boolean, whose body holds control
   * flow that may be staged, or an array predicate with a tensor callback: it may return a counter
   * or flag that a staged loop promoted (analysis/promotion.ts).
   */
  mayReturnPromoted(call: TS.CallExpression, record = false): boolean {
    // (`record`: a call whose value is an object of the user's, `{ reward, done }`, whose numbers may be promoted.)
    const type = this.checker.getTypeAtLocation(call);
    return (record ? this.userObjectType(type) : isNumberOrBoolean(type)) && this.callsStagingBody(call);
  }

  /**
   * Whether a call goes to a function of the project's own sources typed to return an array of
   * tensors, of numbers or booleans, or of records, whose body may stage (as mayReturnPromoted): it
   * may return an array that a staged loop there grew into a list, whose length is an int32 tensor
   * in the caller's trace too (`const idx = positives(xs); for (let i = 0; i < idx.length; i++)`).
   */
  mayReturnList(call: TS.CallExpression): boolean {
    return call.pos >= 0 && call.parent !== undefined &&
      (this.mayHoldTensors(call) || this.holdsNumbersOrBooleans(call) || this.holdsRecords(call)) && this.callsStagingBody(call);
  }

  /** The function of the project's own sources (with a body) that a call goes to, resolved by the checker. */
  projectCallee(call: TS.CallExpression): TS.FunctionLikeDeclaration | undefined {
    if (call.pos < 0 || call.parent === undefined) return undefined;
    const decl = this.checker.getResolvedSignature(call)?.declaration;
    if (decl === undefined || ts.isJSDocSignature(decl)) return undefined;
    const file = decl.getSourceFile();
    if (file.isDeclarationFile || /\/node_modules\//.test(file.fileName.replace(/\\/g, '/'))) return undefined;
    if (this.program !== undefined && this.program.isSourceFileFromExternalLibrary(file)) return undefined;
    if (!ts.isFunctionLike(decl) || (decl as TS.FunctionLikeDeclaration).body === undefined) return undefined;
    return decl as TS.FunctionLikeDeclaration;
  }

  /** Whether a call goes to a function of the project's own sources whose body may stage or reads a promotable value. */
  private callsStagingBody(call: TS.CallExpression): boolean {
    const decl = this.projectCallee(call);
    if (decl === undefined) return false;
    let cached = this.stagingBodies.get(decl);
    if (cached === undefined) {
      // (False while it is being decided: a recursive callee does not decide itself.)
      this.stagingBodies.set(decl, false);
      const body = (decl as TS.FunctionLikeDeclaration).body!;
      // (A tensor `xs.some(...)` there gives a promoted boolean too.)
      cached = this.mayStage(body) || this.readsPromotable(body) || this.callsArrayPredicate(body) || this.takesNumberArrays(decl);
      this.stagingBodies.set(decl, cached);
    }
    return cached;
  }

  /** Whether a function has a parameter typed as an array of JS numbers or booleans (`detectedCurls: number[]`): a
   * caller's trace may pass one whose elements are promoted (or a list), and what it computes from them is too. */
  private takesNumberArrays(decl: TS.FunctionLikeDeclaration): boolean {
    return decl.parameters.some((p) => ts.isIdentifier(p.name) && this.mayBeArray(p.name) && !this.mayHoldTensors(p.name) &&
      this.holdsNumbersOrBooleans(p.name));
  }

  /**
   * Whether a body reads a value that may be promoted wherever it is read: a number or boolean field
   * of the user's objects (`return this.cooldownCounter > 0`: a staged if elsewhere may have made it a
   * tensor), or the result of a call that may return one.
   */
  private readsPromotable(body: TS.Node): boolean {
    const visit = (n: TS.Node): boolean => {
      if (n !== body && (ts.isFunctionLike(n) || ts.isClassLike(n))) return false;
      if (ts.isPropertyAccessExpression(n) && this.isUserField(n)) return true;
      if (ts.isCallExpression(n) && n.pos >= 0 && this.mayReturnPromoted(n)) return true;
      return ts.forEachChild(n, visit) ?? false;
    };
    return visit(body);
  }

  /**
   * `xs.some((x) => x.greater(5))`: a call of an array's predicate method (ARRAY_PREDICATES) on a
   * receiver that may be an array, whose callback's return type may be a Tensor (the callback's call
   * signatures, classified as a condition is: staged or dynamic). JS would read a Tensor result as
   * true; the call becomes ag__.arrayPredicate (runtime/array_predicates.ts). Undefined otherwise.
   */
  arrayPredicate(call: TS.CallExpression): { method: ArrayPredicate; kind: Classification } | undefined {
    const callee = call.expression;
    if (!ts.isPropertyAccessExpression(callee) || callee.questionDotToken !== undefined || call.questionDotToken !== undefined ||
        !ts.isIdentifier(callee.name) || callee.expression.kind === ts.SyntaxKind.SuperKeyword) return undefined;
    const method = callee.name.text as ArrayPredicate;
    const [callback] = call.arguments;
    if (!ARRAY_PREDICATES.includes(method) || callback === undefined || call.arguments.some(ts.isSpreadElement) ||
        call.pos < 0 || !this.mayBeArray(callee.expression)) return undefined;
    const type = this.checker.getTypeAtLocation(callback);
    const signatures = this.checker.getNonNullableType(type).getCallSignatures();
    const kind = signatures.length === 0 ? (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) ? 'dynamic' : 'static')
      : signatures.map((s) => this.type(this.checker.getReturnTypeOfSignature(s))).reduce(join);
    return kind === 'static' ? undefined : { method, kind };
  }

  /** Whether a body calls an array predicate with a tensor callback (arrayPredicate), outside nested functions. */
  private callsArrayPredicate(body: TS.Node): boolean {
    const visit = (n: TS.Node): boolean => !ts.isFunctionLike(n) && !ts.isClassLike(n) &&
      ((ts.isCallExpression(n) && this.givesPromoted(n)) || (ts.forEachChild(n, (c) => visit(c) || undefined) ?? false));
    return ts.forEachChild(body, (c) => visit(c) || undefined) ?? false;
  }

  /** An arrayPredicate call that gives a promoted boolean or index in a trace (some, every, findIndex, findLastIndex). */
  givesPromoted(call: TS.CallExpression): boolean {
    const method = this.arrayPredicate(call)?.method;
    return method === 'some' || method === 'every' || method === 'findIndex' || method === 'findLastIndex';
  }

  /** Whether a call's target is declared by tfjs (a tfjs function or a Tensor method), which
   * takes a promoted tensor where its parameter says number. */
  isTfjsCall(call: TS.CallExpression | TS.NewExpression): boolean {
    const name = this.tfjsFunctionName(call);
    // Functions that make a tensor from JS values read them as JS values.
    return name !== undefined && !TFJS_FROM_JS_VALUES.has(name);
  }

  /** Whether a call's target is declared by tfjs at all (it runs none of the user's functions). */
  callsTfjs(call: TS.CallExpression | TS.NewExpression): boolean {
    return this.tfjsFunctionName(call) !== undefined;
  }

  /** The declaration of the variable or parameter an identifier names (undefined for others). */
  variableDeclarationOf(name: TS.Identifier): TS.VariableDeclaration | TS.ParameterDeclaration | undefined {
    const decl = this.checker.getSymbolAtLocation(name)?.valueDeclaration;
    return decl !== undefined && (ts.isVariableDeclaration(decl) || ts.isParameter(decl)) ? decl : undefined;
  }

  /**
   * Whether `arg` is the values argument of a tfjs function that makes a tensor from JS values
   * (`tf.scalar(v)`, `tf.tensor1d([i, j])`, the value of `tf.fill(shape, v)`): a promoted number
   * there is staged as a tensor (backends/staging/tensor_from_values.ts). Shapes and the other
   * arguments stay JS values.
   */
  isTfjsValuesArgument(call: TS.CallExpression | TS.NewExpression, arg: TS.Expression): boolean {
    const name = this.tfjsFunctionName(call);
    return (name !== undefined && TFJS_VALUES_ARGUMENT.get(name) === (call.arguments?.indexOf(arg) ?? -1)) ||
      this.isNumberArgument(call, arg);
  }

  /**
   * A call of a tfjs op that takes JS numbers where a promoted value may be given (`x.slice([i], [1])`,
   * `tf.oneHot(labels, n)`: NUMBER_ARGUMENT_OPS), with the op and whether it is the Tensor method:
   * the call becomes ag__.tfjsCall / ag__.tensorMethodCall, which stages or refuses a promoted value
   * there (runtime/promoted_op_arguments.ts). A spread or optional call is none.
   */
  numberArgumentOp(call: TS.CallExpression | TS.NewExpression): { op: string; method: boolean } | undefined {
    if (!ts.isCallExpression(call) || call.questionDotToken !== undefined || call.arguments.some(ts.isSpreadElement) ||
        (ts.isPropertyAccessExpression(call.expression) && call.expression.questionDotToken !== undefined)) return undefined;
    const decl = this.checker.getResolvedSignature(call)?.declaration;
    const op = this.tfjsFunctionName(call)?.replace(/_$/, '');
    if (op === undefined || decl === undefined || !Object.prototype.hasOwnProperty.call(NUMBER_ARGUMENT_OPS, op)) return undefined;
    const method = ts.isMethodSignature(decl) || ts.isMethodDeclaration(decl);
    return method && NUMBER_ARGUMENT_OPS[op].tensor === undefined ? undefined : { op, method };
  }

  /** Whether `arg` is one of the number arguments of a numberArgumentOp call (its begin, shape, depth...). */
  private isNumberArgument(call: TS.CallExpression | TS.NewExpression, arg: TS.Expression): boolean {
    const target = this.numberArgumentOp(call);
    const index = call.arguments?.indexOf(arg) ?? -1;
    return target !== undefined && NUMBER_ARGUMENT_OPS[target.op].numbers.some((_, k) => numberArgumentIndex(target.op, k, target.method) === index);
  }

  /** The name of the tfjs function a call resolves to (by its declaration's file), if it is one. */
  private tfjsFunctionName(call: TS.CallExpression | TS.NewExpression): string | undefined {
    const decl = this.checker.getResolvedSignature(call)?.declaration;
    if (decl === undefined || !/\/@tensorflow\//.test(decl.getSourceFile().fileName.replace(/\\/g, '/'))) return undefined;
    const declName = (decl as TS.SignatureDeclaration).name;
    return declName !== undefined && ts.isIdentifier(declName) ? declName.text : '';
  }

  /** An iterable (or for...in object), by its type: a Tensor or TensorRange is staged, an array
   * is static. */
  private iterable(expr: TS.Expression): Classification {
    return this.forced(this.type(this.checker.getTypeAtLocation(expr)));
  }

  private computePredicate(expr: TS.Expression): Classification {
    if (ts.isParenthesizedExpression(expr)) return this.predicate(expr.expression);
    if (ts.isPrefixUnaryExpression(expr) && expr.operator === ts.SyntaxKind.ExclamationToken) {
      return this.predicate(expr.operand);
    }
    if (ts.isBinaryExpression(expr)) {
      const op = expr.operatorToken.kind;
      if (op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken) {
        return join(this.predicate(expr.left), this.predicate(expr.right));
      }
      if (op === ts.SyntaxKind.CommaToken) return this.predicate(expr.right);
    }
    if (ts.isConditionalExpression(expr)) {
      return join(this.predicate(expr.whenTrue), this.predicate(expr.whenFalse));
    }
    return this.type(this.checker.getTypeAtLocation(expr));
  }

  type(type: TS.Type): Classification {
    const cached = this.typeCache.get(type);
    if (cached !== undefined) return cached;
    this.typeCache.set(type, 'dynamic'); // recursion guard for self-referential types
    const result = this.computeType(type);
    this.typeCache.set(type, result);
    return result;
  }

  private computeType(type: TS.Type): Classification {
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 'dynamic';
    if (flags & ts.TypeFlags.Index) return 'static'; // keyof T: string | number | symbol
    // Type parameters and everything computed from them (T[K], conditional types like Exclude<T, X>,
    // substitution types): what they can hold is bounded by their base constraint. Without one,
    // anything goes.
    if (flags & (ts.TypeFlags.TypeParameter | ts.TypeFlags.IndexedAccess | ts.TypeFlags.Conditional |
                 ts.TypeFlags.Substitution)) {
      const constraint = this.checker.getBaseConstraintOfType(type);
      if (constraint === undefined || constraint === type) return 'dynamic';
      const inner = this.type(constraint);
      return inner === 'static' ? 'static' : 'dynamic';
    }
    if (flags & (ts.TypeFlags.BooleanLike | ts.TypeFlags.NumberLike | ts.TypeFlags.StringLike |
                 ts.TypeFlags.BigIntLike | ts.TypeFlags.ESSymbolLike | ts.TypeFlags.Void |
                 ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Never | ts.TypeFlags.EnumLike)) {
      return 'static';
    }
    if (type.isUnion()) {
      const parts = type.types.map((t) => this.type(t));
      if (parts.every((p) => p === 'static')) return 'static';
      if (parts.every((p) => p === 'staged')) return 'staged';
      return 'dynamic';
    }
    if (type.isIntersection()) {
      // A value of A & B is both: a branded tensor is a tensor; if one part cannot hold a tensor,
      // neither can the whole.
      const parts = type.types.map((t) => this.type(t));
      if (parts.includes('staged')) return 'staged';
      // Without tfjs's Tensor type to check against, a part's 'static' is only a guess: stay safe.
      if (this.tensorType() === undefined) return parts.includes('dynamic') ? 'dynamic' : 'static';
      return parts.includes('static') ? 'static' : 'dynamic';
    }
    if (flags & ts.TypeFlags.Object) {
      if (this.isTensorClass(type)) return 'staged';
      return this.admitsTensor(type) ? 'dynamic' : 'static';
    }
    if (flags & ts.TypeFlags.NonPrimitive) return 'dynamic'; // `object`
    return 'static';
  }

  /** The tfjs Tensor class or anything derived from it (Scalar, Tensor1D, ..., Variable), found
   * through the declarations' names and files, and structurally (a duplicated tfjs copy). */
  private isTensorClass(type: TS.Type): boolean {
    const symbol = type.getSymbol() ?? type.aliasSymbol;
    if (symbol !== undefined && isTfjsDeclared(symbol, ['Tensor', 'Variable', 'TensorRange'])) return true;
    for (const base of this.baseTypes(type)) {
      const baseSymbol = base.getSymbol();
      if (baseSymbol !== undefined && isTfjsDeclared(baseSymbol, ['Tensor'])) return true;
    }
    return TENSOR_MEMBERS.every((name) => type.getProperty(name) !== undefined);
  }

  private baseTypes(type: TS.Type): TS.Type[] {
    const target = (type as TS.TypeReference).target ?? type;
    if (!(target.flags & ts.TypeFlags.Object) || !((target as TS.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface)) {
      return [];
    }
    const result: TS.Type[] = [];
    const visit = (t: TS.InterfaceType): void => {
      for (const base of this.checker.getBaseTypes(t)) {
        result.push(base);
        const baseTarget = ((base as TS.TypeReference).target ?? base) as TS.InterfaceType;
        if ((baseTarget as TS.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface) visit(baseTarget);
      }
    };
    visit(target as TS.InterfaceType);
    return result;
  }

  /**
   * Whether a value of an object type could be a Tensor at run time: the checker is asked whether
   * tfjs's Tensor is assignable to it (`{}`, `Object`, `{ shape: number[] }` yes; arrays,
   * functions, `Record<string, number>`, class instances no). Without tfjs in the program, only
   * property-less object types (`{}`, empty interfaces) and `Object` are taken to admit one.
   */
  private admitsTensor(type: TS.Type): boolean {
    const tensor = this.tensorType();
    if (tensor !== undefined) return this.checker.isTypeAssignableTo(tensor, type);
    return this.isOpenObjectType(type);
  }

  private tensorTypeCache: TS.Type | null | undefined;

  /** tfjs-core's Tensor class type, if the program has tfjs's declarations. */
  private tensorType(): TS.Type | undefined {
    if (this.tensorTypeCache === undefined) {
      this.tensorTypeCache = null;
      const file = this.program?.getSourceFiles().find((f) => /@tensorflow\/tfjs-core\/dist\/tensor\.d\.ts$/.test(f.fileName.replace(/\\/g, '/')));
      const decl = file?.statements.find((s): s is TS.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'Tensor');
      const symbol = decl?.name && this.checker.getSymbolAtLocation(decl.name);
      if (symbol) this.tensorTypeCache = this.checker.getDeclaredTypeOfSymbol(symbol);
    }
    return this.tensorTypeCache ?? undefined;
  }

  private isOpenObjectType(type: TS.Type): boolean {
    const symbol = type.getSymbol();
    if (symbol?.getName() === 'Object' && this.checker.getPropertiesOfType(type).length > 5) return true;
    return this.checker.getPropertiesOfType(type).length === 0 &&
      this.checker.getSignaturesOfType(type, ts.SignatureKind.Call).length === 0 &&
      this.checker.getSignaturesOfType(type, ts.SignatureKind.Construct).length === 0;
  }
}

function join(a: Classification, b: Classification): Classification {
  if (a === 'static') return b;
  if (b === 'static') return a;
  return a === 'staged' && b === 'staged' ? 'staged' : 'dynamic';
}

function isTfjsDeclared(symbol: TS.Symbol, names: string[]): boolean {
  if (!names.includes(symbol.getName())) return false;
  return (symbol.getDeclarations() ?? []).some((decl) => {
    const file = decl.getSourceFile().fileName.replace(/\\/g, '/');
    return /@tensorflow\/tfjs-core\//.test(file) || /autograph-ts\/.*range|\/runtime\/range\.(d\.)?ts$/.test(file);
  });
}

/** Whether a type is a number (or a union of numbers) or a boolean: a value staging may promote. */
function isNumberOrBoolean(type: TS.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.every((t) => (t.flags & ts.TypeFlags.NumberLike) !== 0) || parts.every((t) => (t.flags & ts.TypeFlags.BooleanLike) !== 0);
}
