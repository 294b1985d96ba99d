import * as ag__ from "autograph-ts/runtime";
import * as tf from '@tensorflow/tfjs';
// A break in finally overrides the pending return: the flags set in try are saved, cleared
// while finally runs, and restored unless finally jumped.
export function lastBelow(xs, limit) {
    let do_return = false;
    let retval_ = ag__.UndefinedReturnValue.instance;
    let i = tf.scalar(0);
    let last = tf.scalar(-1);
    let break_ = false;
    const loop_test = () => ag__.and(() => ag__.and(() => ag__.not(break_), () => ag__.not(do_return), { origin: "finally_overrides.ts:9:10" }), () => i.less(xs.size), { origin: "finally_overrides.ts:9:10" });
    const loop_body = () => {
        {
            let threw_ = false, error_, finally_jumped_ = false;
            try {
                const if_body = () => {
                    retval_ = last;
                    do_return = true;
                };
                ag__.ifStmt(xs.gather(i.cast('int32')).greater(limit), if_body, undefined, () => [retval_, do_return], vars_ => { [retval_, do_return] = vars_; }, ["retval_", "do_return"], 2, { origin: "finally_overrides.ts:11:7", flags: ["retval_", "do_return"] });
                const if_body_1 = () => {
                    last = i;
                };
                ag__.ifStmt(ag__.not(do_return), if_body_1, undefined, () => [last], vars__1 => { [last] = vars__1; }, ["last"], 1, { origin: "finally_overrides.ts:12:7", jump: { kind: "return", origin: "finally_overrides.ts:11:11" } });
            }
            catch (error) {
                threw_ = true;
                error_ = error;
            }
            const pending_do_return = do_return;
            do_return = false;
            const pending_retval_ = retval_;
            retval_ = ag__.UndefinedReturnValue.instance;
            {
                i = i.add(1);
                const if_body_2 = () => {
                    finally_jumped_ = true;
                    break_ = true;
                };
                ag__.ifStmt(i.greater(5), if_body_2, undefined, () => [finally_jumped_, break_], vars__2 => { [finally_jumped_, break_] = vars__2; }, ["finally_jumped_", "break_"], 2, { origin: "finally_overrides.ts:15:7", flags: ["finally_jumped_", "break_"] });
            }
            const if_body_3 = () => {
                do_return = pending_do_return;
                retval_ = pending_retval_;
            };
            ag__.ifStmt(ag__.not(finally_jumped_), if_body_3, undefined, () => [do_return, retval_], vars__3 => { [do_return, retval_] = vars__3; }, ["do_return", "retval_"], 2, { origin: "finally_overrides.ts:13:15", flags: ["do_return", "retval_"] });
            if (threw_ && !finally_jumped_)
                throw error_;
        }
    };
    ag__.whileStmt(loop_test, loop_body, () => [retval_, do_return, last, i, break_], vars__4 => { [retval_, do_return, last, i, break_] = vars__4; }, ["retval_", "do_return", "last", "i", "break_"], { origin: "finally_overrides.ts:9:3", flags: ["retval_", "do_return", "break_"] });
    const if_body_4 = () => {
        retval_ = last;
        do_return = true;
    };
    ag__.ifStmt(ag__.not(do_return), if_body_4, undefined, () => [retval_, do_return], vars__5 => { [retval_, do_return] = vars__5; }, ["retval_", "do_return"], 2, { origin: "finally_overrides.ts:18:3", flags: ["retval_", "do_return"], jump: { kind: "return", origin: "finally_overrides.ts:11:11" } });
    return ag__.retval(retval_);
}
