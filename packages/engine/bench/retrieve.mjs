// What a retrieve costs and what a budget keeps, on the benchmark corpus (issue 23). For every gold
// answer of every item, the query an agent would write for it (`gold.query`, else the answer's
// text) is run through narrow() with the item's hint: the view's o200k tokens, and whether the
// answer is in the view. The target is a median of at most 400 tokens, the cost of the grep an
// agent would run instead. Then compress() of each item under a 500-token budget (about the ~2 KB
// preview Claude Code shows of a long Bash output): whether the budget was met, and how many gold
// answers the budgeted output shows. The engine is passed in, so one run grades two builds.
import { median } from "./summary.mjs";

/** Tokens of the budget the session hook would set for a long Bash output (its ~2 KB preview). */
export const PREVIEW_BUDGET = 500;
/** The target for the median query retrieve. */
export const RETRIEVE_TARGET = 400;

/** One row per gold answer: the query, the view's tokens, and whether the answer is in it. */
export function gradeRetrieves(engine, corpus) {
  const rows = [];
  for (const item of corpus)
    for (const g of item.gold) {
      const query = g.query ?? g.text;
      const view = engine.narrow(item.content, query, item.hint ? { hint: item.hint } : {});
      rows.push({
        id: item.id,
        query,
        tokens: engine.countTokens(view.output),
        full: view.full,
        found: view.output.includes(g.text),
      });
    }
  return rows;
}

/** Median, 90th percentile and largest view, and answers found, of `gradeRetrieves` rows. */
export function retrieveSummary(rows) {
  const sorted = rows.map((r) => r.tokens).sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null;
  return {
    queries: rows.length,
    median: median(sorted),
    p90: at(0.9),
    max: sorted.at(-1) ?? null,
    found: rows.filter((r) => r.found).length,
    full: rows.filter((r) => r.full).length,
  };
}

/** Per item under the preview budget: tokens out, whether the budget held, gold answers shown. */
export function gradeBudgets(engine, corpus, budget = PREVIEW_BUDGET) {
  return corpus.map((item) => {
    const r = engine.compress(item.content, { ...(item.hint ? { hint: item.hint } : {}), budget });
    const replaced = r.output !== item.content;
    return {
      id: item.id,
      tokensIn: r.tokensIn,
      tokensOut: r.tokensOut,
      // A pass-through under the budget is within it; a replacement must be.
      met: r.tokensOut <= budget,
      replaced,
      gold: item.gold.length,
      visible: item.gold.filter((g) => r.output.includes(g.text)).length,
    };
  });
}
