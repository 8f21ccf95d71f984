// Aggregates item grades per kind and overall: median token reduction beside each baseline,
// gold answers visible / needs_retrieve / lost, and every fidelity failure, with the issue's
// reduction targets next to the achieved medians.

/** Reduction targets from the issue (median token reduction per kind). */
const TARGETS = { json: 0.8, log: 0.85, grep: 0.8, test: 0.8, diff: 0.5, code: 0.4, prose: 0.3 };

export function median(values) {
  const v = values.filter((x) => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

const reductionOf = (tokensIn, tokens) =>
  tokens === null || tokens === undefined ? null : 1 - tokens / tokensIn;

function summarizeGroup(name, grades) {
  const sum = (f) => grades.reduce((n, g) => n + f(g), 0);
  const base = (f) =>
    median(grades.map((g) => (g.baselines ? reductionOf(g.tokensIn, f(g.baselines)) : null)));
  return {
    kind: name,
    items: grades.length,
    tokensIn: sum((g) => g.tokensIn),
    tokensOut: sum((g) => g.tokensOut),
    medianReduction: median(grades.map((g) => g.reduction)),
    target: TARGETS[name] ?? null,
    minifiedReduction: base((b) => b.minified),
    toonReduction: base((b) => b.toon),
    headTailReduction: base((b) => b.headTail.tokens),
    visible: sum((g) => g.visible),
    needsRetrieve: sum((g) => g.needsRetrieve),
    lost: sum((g) => g.lost),
    headTailLost: sum((g) => (g.baselines ? g.baselines.headTail.lost : 0)),
    passedThrough: sum((g) => (g.reason ? 1 : 0)),
    fabricatedLines: sum((g) => g.fabricated.count),
    notDeterministic: sum((g) => (g.deterministic ? 0 : 1)),
    notIdempotent: sum((g) => (g.idempotent ? 0 : 1)),
    retrieveNotExact: sum((g) => (g.retrieveExact && g.passThroughIsExact ? 0 : 1)),
    toonRoundTripFailed: sum((g) => (g.toonRoundTrip === false ? 1 : 0)),
  };
}

/**
 * One row per kind plus an "overall" row: kinds in the order of `kinds` (the engine's
 * CONTENT_KINDS), or sorted; an item of a kind the list lacks is an error.
 */
export function summarize(grades, kinds) {
  const present = new Set(grades.map((g) => g.kind));
  const unknown = kinds ? [...present].filter((k) => !kinds.includes(k)) : [];
  if (unknown.length > 0) throw new Error(`corpus items of unknown kind: ${unknown.join(", ")}`);
  const order = kinds ? kinds.filter((k) => present.has(k)) : [...present].sort();
  const rows = order.map((k) =>
    summarizeGroup(
      k,
      grades.filter((g) => g.kind === k),
    ),
  );
  rows.push(summarizeGroup("overall", grades));
  return rows;
}

/** Whether a kind's median meets its target (null when the issue sets none). */
export function meetsTarget(row) {
  return row.target === null || row.medianReduction === null ? null : row.medianReduction >= row.target;
}
