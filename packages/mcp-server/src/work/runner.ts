// The engine behind `@caveman/keep`: a Runner over an Engine (the worker pool, or inline), so the
// compress tool, the proxy and the CLI keep through the same deadline-bound engine calls.
import type { Runner } from "@caveman/keep";
import type { Engine } from "./engine.js";
import { outputOf } from "./jobs.js";

export function engineRunner(engine: Engine): Runner {
  return async (input, options, signal) => {
    const outcome = await engine.run({ op: "compress", input, options }, signal);
    if (!outcome.ok) return { ok: false, why: outcome.why, message: outcome.message };
    const { same: _same, output: _output, ...rest } = outcome.value;
    return { ok: true, result: { ...rest, output: outputOf(outcome.value, input) } };
  };
}
