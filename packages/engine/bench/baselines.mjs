// Baselines graded in the same run as the engine: raw, minified JSON, TOON alone, and head+tail
// truncation to the engine's own token budget (with how many gold answers that truncation drops;
// it has no recovery path, so a gold it cuts is simply gone).

const TRUNCATION_MARK = "... (truncated) ...";

/** Tokens of compact JSON for JSON items, else null. */
function minifiedTokens(engine, item) {
  if (item.kind !== "json") return null;
  try {
    return engine.countTokens(JSON.stringify(JSON.parse(item.content)));
  } catch {
    return null;
  }
}

/** Tokens of the TOON encoding alone for JSON items, else null. */
function toonTokens(engine, item) {
  if (item.kind !== "json") return null;
  const res = engine.toonEncode(item.content);
  return res.ok ? res.tokensOut : null;
}

/**
 * Keep the first and last lines (half the budget each) with one truncation line between, as a
 * naive `head`/`tail` would; single-line inputs are cut by characters instead.
 */
export function headTail(engine, text, budget) {
  if (engine.countTokens(text) <= budget) return text;
  const lines = text.split("\n");
  if (lines.length < 3) return headTailChars(engine, text, budget);
  const half = Math.max(0, Math.floor(budget / 2));
  const cost = lines.map((l) => engine.countTokens(`${l}\n`));
  let head = 0;
  for (let used = 0; head < lines.length && used + cost[head] <= half; head++) used += cost[head];
  let tail = lines.length;
  for (let used = 0; tail > head && used + cost[tail - 1] <= budget - half; tail--) used += cost[tail - 1];
  return [...lines.slice(0, head), TRUNCATION_MARK, ...lines.slice(tail)].join("\n");
}

function headTailChars(engine, text, budget) {
  let lo = 0;
  let hi = Math.floor(text.length / 2);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const cut = `${text.slice(0, mid)}${TRUNCATION_MARK}${text.slice(text.length - mid)}`;
    if (engine.countTokens(cut) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo)}${TRUNCATION_MARK}${text.slice(text.length - lo)}`;
}

/** All baselines for one item, given the engine's own output token count as the budget. */
export function baselines(engine, item, tokensIn, budget) {
  const truncated = headTail(engine, item.content, budget);
  const tokens = engine.countTokens(truncated);
  return {
    raw: tokensIn,
    minified: minifiedTokens(engine, item),
    toon: toonTokens(engine, item),
    headTail: {
      tokens,
      lost: item.gold.filter((g) => !truncated.includes(g.text)).length,
    },
  };
}
