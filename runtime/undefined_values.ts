/**
 * Reified "no value" markers. A staged `if` or loop may meet a variable that has no value yet on
 * some path; instead of JS `undefined` (indistinguishable from a real undefined) the staging engine
 * sees one of these, which carry the variable's name for the error message.
 */
export class Undefined {
  constructor(readonly symbolName: string) {}
  toString(): string {
    return `<undefined ${this.symbolName}>`;
  }
}

/**
 * The initial value of the synthesized `retval_` of a function whose returns were lowered to a
 * single exit: "this function has not returned a value yet".
 */
export class UndefinedReturnValue {
  static readonly instance = new UndefinedReturnValue();
  private constructor() {}
  toString(): string {
    return '<no return value>';
  }
}
