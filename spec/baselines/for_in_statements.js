import * as ag__ from "autograph-ts/runtime";
// A for...in that a break under a tensor condition leaves: ag__.forInStmt with the break flag
// as its extra test.
export function keysUntil(o, limit) {
    const out = [];
    let break_ = false;
    const loop_body = k => {
        const if_body = () => {
            break_ = true;
        };
        ag__.ifStmt(o[k].greater(limit), if_body, undefined, () => [break_], vars_ => { [break_] = vars_; }, ["break_"], 1, { origin: "for_in_statements.ts:9:5", flags: ["break_"] });
        const if_body_1 = () => {
            out.push(k);
        };
        ag__.ifStmt(ag__.not(break_), if_body_1, undefined, () => [], () => { }, [], 0, { origin: "for_in_statements.ts:10:5", composites: () => ({ out }), jump: { kind: "break", origin: "for_in_statements.ts:9:9" } });
    };
    ag__.forInStmt(o, () => ag__.not(break_), loop_body, () => [break_], vars__1 => { [break_] = vars__1; }, ["break_"], { origin: "for_in_statements.ts:8:3", flags: ["break_"], composites: () => ({ out }) });
    return out;
}
// Nothing converted inside: the for...in stays native.
export function countKeys(o) {
    let n = 0;
    for (const k in o)
        if (o[k] > 0)
            n++;
    return n;
}
