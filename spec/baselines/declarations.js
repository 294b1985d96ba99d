import * as ag__ from "autograph-ts/runtime";
export function hoisting(x) {
    var positive;
    function helper(v) { return v * 2; }
    const if_body = () => {
        positive = true;
    };
    ag__.ifStmt(x.greater(0), if_body, undefined, () => [positive], vars_ => { [positive] = vars_; }, ["positive"], 1, { origin: "declarations.ts:4:3" });
    return helper(positive ? 1 : 0);
}
