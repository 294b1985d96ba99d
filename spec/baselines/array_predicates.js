import * as ag__ from "autograph-ts/runtime";
function withinRadius(poses, point, r) {
    return ag__.arrayPredicate(poses, "some", (p) => p.sub(point).square().sum().lessEqual(r), { origin: "array_predicates.ts:3:10", name: "poses" });
}
export function decode(candidates, r) {
    const poses = ag__.newList([], { origin: "array_predicates.ts:7:9", name: "poses" });
    let continue_ = false;
    for (const c of candidates) {
        continue_ = false;
        const if_body = () => {
            continue_ = true;
        };
        ag__.ifStmt(withinRadius(poses, c, r), if_body, undefined, () => [continue_], vars_ => { [continue_] = vars_; }, ["continue_"], 1, { origin: "array_predicates.ts:9:5", flags: ["continue_"] });
        const if_body_1 = () => {
            poses.push(c);
        };
        ag__.ifStmt(ag__.not(continue_), if_body_1, undefined, () => [], () => { }, [], 0, { origin: "array_predicates.ts:10:5", composites: () => ({ poses }), jump: { kind: "continue", origin: "array_predicates.ts:9:9" } });
    }
    return poses;
}
export function forms(xs, flags, f) {
    const all = ag__.arrayPredicate(xs, "every", (x) => x.greater(0), { origin: "array_predicates.ts:16:15", name: "xs" }, undefined);
    const first = ag__.arrayPredicate(xs, "findIndex", f, { origin: "array_predicates.ts:17:17", name: "xs" });
    const kept = ag__.arrayPredicate(xs, "filter", (x) => x.less(3), { origin: "array_predicates.ts:18:16", name: "xs" }).length;
    return [ag__.and(() => all, () => !flags.some((b) => b), { origin: "array_predicates.ts:19:11" }), first, kept, ag__.arrayPredicate(xs, "some", (x) => x.equal(1), { origin: "array_predicates.ts:19:54", name: "xs" })];
}
