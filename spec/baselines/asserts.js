import * as ag__ from "autograph-ts/runtime";
import assert from 'node:assert';
// node:assert and console.assert on tensor conditions: ag__.assert with the original as the check.
export function checked(x) {
    ag__.assert(x.greater(0), ['x must be positive'], (ok, ...args) => assert(ok, ...args), { origin: "asserts.ts:8:3" });
    ag__.assert(x.less(10), ['x is big'], (ok_1, ...args_1) => console.assert(ok_1, ...args_1), { origin: "asserts.ts:9:3", kind: "console" });
    return x.sqrt();
}
// A plain boolean condition: the assert stays as written.
export function plainChecked(n) {
    assert(n > 0, 'n must be positive');
    return n;
}
