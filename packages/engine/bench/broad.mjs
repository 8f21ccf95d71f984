// The broad-corpus section of the engine bench (issue 13): every item of corpus/broad graded with
// no hint (what a hook or proxy sees) and with its producing command as hint, per family, with
// marker economics: marker tokens as a share of output tokens, and markers that cost at least as
// many tokens as the original lines they stand for. `before` (an older build of the engine,
// passed as --before=<dist/index.js>) is graded in the same run so the figures compare.
import { gradeItem } from "./graders.mjs";
import { median } from "./summary.mjs";

/**
 * Marker economics of one output: tokens of marker text, and the markers whose line (a whole
 * marker line) costs at least as many tokens as the input lines it sits in place of. Kept lines
 * are matched to the input in order, so the lines a marker replaces are exactly those between
 * the kept lines around it; the grammar of the marker is never parsed.
 */
export function markerCosts(engine, input, output) {
  const inLines = input.split("\n");
  const outLines = output.split("\n");
  let markerTokens = 0;
  let markers = 0;
  let costly = 0;
  let wasted = 0;
  // Inline (JSON) markers count toward the share; their elided text is not a line run.
  if (!outLines.some((l) => engine.isMarkerLine(l))) {
    for (const m of output.matchAll(/\[caveman: [^\]]*\]/g)) {
      markers++;
      markerTokens += engine.countTokens(m[0]);
    }
    return { markers, markerTokens, costly, wasted };
  }
  let at = 0;
  let pending = null;
  const close = (end) => {
    if (!pending) return;
    const elided = engine.countTokens(inLines.slice(pending.from, end).join("\n"));
    if (pending.tokens >= elided) {
      costly++;
      wasted += pending.tokens - elided;
    }
    pending = null;
  };
  for (const line of outLines) {
    if (engine.isMarkerLine(line)) {
      const tokens = engine.countTokens(line);
      markers++;
      markerTokens += tokens;
      // A JSON-form marker stands for items inside one input line: counted, not costed.
      if (line.trimStart().startsWith('"')) continue;
      close(at);
      pending = { from: at, tokens };
      continue;
    }
    // The next input line equal to it, else (a shortened line) the next one containing it.
    let j = at;
    while (j < inLines.length && inLines[j] !== line) j++;
    if (j === inLines.length && line !== "") {
      j = at;
      while (j < inLines.length && !inLines[j].includes(line)) j++;
    }
    if (j === inLines.length) continue;
    close(j);
    at = j + 1;
  }
  close(inLines.length);
  return { markers, markerTokens, costly, wasted };
}

/** Grades every broad item with and without its hint, and marker economics of the no-hint output. */
export function gradeBroad(engine, corpus) {
  return corpus.map((item) => {
    const plain = gradeItem(engine, { ...item, hint: undefined }, { baselines: false });
    const hinted = gradeItem(engine, item, { baselines: false });
    const out = engine.compress(item.content, {}).output;
    const hintedOut = engine.compress(item.content, { hint: item.hint }).output;
    return {
      id: item.id,
      family: item.family,
      kind: item.kind,
      tokensIn: plain.tokensIn,
      plain,
      hinted,
      markers: markerCosts(engine, item.content, out),
      hintedMarkers: markerCosts(engine, item.content, hintedOut),
    };
  });
}

const sum = (xs, f) => xs.reduce((n, x) => n + f(x), 0);
const aggregate = (xs, g) => 1 - sum(xs, (x) => x[g].tokensOut) / sum(xs, (x) => x[g].tokensIn);

/** Headline figures of a graded broad corpus, against issue 13's targets. */
export function broadSummary(rows) {
  const logs = rows.filter((r) => r.kind === "log");
  const group = (prefix) => rows.filter((r) => r.family.startsWith(prefix));
  const out = (g) => sum(rows, (r) => r[g].tokensOut);
  const mk = (g) => (g === "plain" ? "markers" : "hintedMarkers");
  return Object.fromEntries(
    ["plain", "hinted"].map((g) => [
      g,
      {
        median: median(rows.map((r) => r[g].reduction)),
        aggregate: aggregate(rows, g),
        worstLogFamily: Math.min(...logs.map((r) => r[g].reduction)),
        diffMedian: median(group("diff:").map((r) => r[g].reduction)),
        grepMedian: median(group("grep:").map((r) => r[g].reduction)),
        lost: sum(rows, (r) => r[g].lost),
        fabricated: sum(rows, (r) => r[g].fabricated.count),
        notIdempotent: sum(rows, (r) => (r[g].idempotent ? 0 : 1)),
        notDeterministic: sum(rows, (r) => (r[g].deterministic ? 0 : 1)),
        retrieveNotExact: sum(rows, (r) => (r[g].retrieveExact && r[g].passThroughIsExact ? 0 : 1)),
        markerShare: sum(rows, (r) => r[mk(g)].markerTokens) / out(g),
        // The same share over the items that were compressed (pass-throughs hold no markers).
        markerShareCompressed:
          sum(rows, (r) => r[mk(g)].markerTokens) /
          Math.max(
            1,
            sum(
              rows.filter((r) => !r[g].reason),
              (r) => r[g].tokensOut,
            ),
          ),
        costlyMarkers: sum(rows, (r) => r[mk(g)].costly),
        wastedTokens: sum(rows, (r) => r[mk(g)].wasted),
      },
    ]),
  );
}
