// A command's whole output, as `caveman-mcp run` captured it, to what the model reads. Contract:
// the same rules as the PostToolUse hook on Bash (floor, kinds, gain, the budget of what the host
// would show: the preview's above its 30,000-character limit), with the capture — stdout and
// stderr in the order the command wrote them, byte-exact, untrimmed — as the original kept.
import { bashBudget } from "./budget.js";
import { hintForCommand } from "./policy.js";
import { type HookContext, shrink } from "./shrink.js";

export type CommandOutput = { text: string; handle: string } | { pass: string };

export async function keepCommandOutput(
  text: string,
  command: string,
  ctx: HookContext,
): Promise<CommandOutput> {
  const hint = hintForCommand(command);
  const r = await shrink(
    {
      text,
      ...(hint ? { hint } : {}),
      producer: `Bash: ${command}`,
      source: "output",
      budget: bashBudget(text.length, false, ctx.settings.budgetTokens),
    },
    ctx,
  );
  return "pass" in r ? r : { text: r.text, handle: r.handle };
}
