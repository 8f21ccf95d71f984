// The real-corpus section of the engine bench (issue 27), printed first: every item of
// corpus/real (real tools on real projects, recorded by corpus/real/record.mjs) graded with no
// hint, as a hook or proxy sees it, and with its producing command; per family (the item's kind)
// and overall, against the targets. Throughput inputs of 1 MB per family are built from
// the family's items.
import { gradeBroad } from "./broad.mjs";
import { parses } from "./graders.mjs";
import { median } from "./summary.mjs";

const sum = (xs, f) => xs.reduce((n, x) => n + f(x), 0);
const aggregate = (rows, g) =>
  1 -
  sum(rows, (r) => r[g].tokensOut) /
    Math.max(
      1,
      sum(rows, (r) => r[g].tokensIn),
    );

/** An item this large passing through is a loss unless no form of it saves 10%. */
const BIG_ITEM_TOKENS = 2000;

/**
 * Grades every real item as the broad corpus is graded (no hint, natural hint, marker economics),
 * plus the best form: the most any of no hint, the natural hint or the family as hint saves.
 */
export function gradeReal(engine, corpus) {
  const rows = gradeBroad(
    engine,
    corpus.map((item) => ({ ...item, family: item.kind })),
  );
  return rows.map((row, i) => {
    const item = corpus[i];
    const asKind = engine.compress(item.content, { hint: item.kind });
    const kindReduction = asKind.reason ? 0 : 1 - asKind.tokensOut / asKind.tokensIn;
    return { ...row, best: Math.max(row.plain.reduction, row.hinted.reduction, kindReduction) };
  });
}

function familyRow(name, rows) {
  const golds = sum(rows, (r) => r.plain.visible + r.plain.needsRetrieve + r.plain.lost);
  return {
    family: name,
    items: rows.length,
    tokensIn: sum(rows, (r) => r.plain.tokensIn),
    median: median(rows.map((r) => r.plain.reduction)),
    aggregate: aggregate(rows, "plain"),
    hintedMedian: median(rows.map((r) => r.hinted.reduction)),
    passedThrough: rows.filter((r) => r.plain.reason).length,
    bigPassThroughs: rows
      .filter((r) => r.plain.reason && r.plain.tokensIn > BIG_ITEM_TOKENS && r.best >= 0.1)
      .map((r) => r.id),
    golds,
    visible: sum(rows, (r) => r.plain.visible),
    lost: sum(rows, (r) => r.plain.lost),
    fabricated: sum(rows, (r) => r.plain.fabricated.count),
    costlyMarkers: sum(rows, (r) => r.markers.costly),
    notDeterministic: sum(rows, (r) => (r.plain.deterministic ? 0 : 1)),
    notIdempotent: sum(rows, (r) => (r.plain.idempotent ? 0 : 1)),
    retrieveNotExact: sum(rows, (r) => (r.plain.retrieveExact && r.plain.passThroughIsExact ? 0 : 1)),
  };
}

/** One row per family (in `kinds` order) and an overall row. */
export function realSummary(rows, kinds) {
  const families = kinds.filter((k) => rows.some((r) => r.kind === k));
  return [
    ...families.map((k) =>
      familyRow(
        k,
        rows.filter((r) => r.kind === k),
      ),
    ),
    familyRow("overall", rows),
  ];
}

/** The targets on the real corpus, from the summary and the 1 MB throughput rows. */
export function realTargets(summary, throughput1mb) {
  const overall = summary.at(-1);
  const families = summary.slice(0, -1);
  const pct = (x) => (x === null ? "-" : `${(x * 100).toFixed(1)}%`);
  const worst = families.reduce((w, f) => (w === null || f.median < w.median ? f : w), null);
  const slowest = throughput1mb.reduce((w, t) => (w === null || t.mbPerSec < w.mbPerSec ? t : w), null);
  const rows = [
    [
      "items >= 150, no family under 6",
      `${overall.items} items, smallest family ${Math.min(...families.map((f) => f.items))}`,
      overall.items >= 150 && families.every((f) => f.items >= 6),
    ],
    ["no-hint median reduction >= 70%", pct(overall.median), overall.median >= 0.7],
    ["no-hint aggregate reduction >= 85%", pct(overall.aggregate), overall.aggregate >= 0.85],
    [
      "every family median >= 40%",
      worst ? `${worst.family} ${pct(worst.median)}` : "-",
      families.every((f) => f.median >= 0.4),
    ],
    [
      "items over 2,000 tokens passed through (best form saves >= 10%)",
      overall.bigPassThroughs.join(", ") || "0",
      overall.bigPassThroughs.length === 0,
    ],
    ["gold answers lost", String(overall.lost), overall.lost === 0],
    ["fabricated lines", String(overall.fabricated), overall.fabricated === 0],
    ["markers costing more than they elide", String(overall.costlyMarkers), overall.costlyMarkers === 0],
    [
      "not deterministic / not idempotent / retrieve not exact",
      `${overall.notDeterministic}/${overall.notIdempotent}/${overall.retrieveNotExact}`,
      overall.notDeterministic + overall.notIdempotent + overall.retrieveNotExact === 0,
    ],
    [
      "gold answers visible without retrieve >= 90%",
      `${overall.visible}/${overall.golds} (${pct(overall.visible / Math.max(1, overall.golds))})`,
      overall.visible >= 0.9 * overall.golds,
    ],
    [
      "throughput at 1 MB >= 20 MB/s, every family",
      slowest ? `${slowest.kind} ${slowest.mbPerSec.toFixed(1)} MB/s` : "-",
      throughput1mb.length > 0 && throughput1mb.every((t) => t.mbPerSec >= 20),
    ],
  ];
  return rows.map(([target, achieved, met]) => ({ target, achieved, met: met ? "yes" : "NO" }));
}

function linesUpTo(texts, bytes) {
  const out = [];
  let size = 0;
  while (size < bytes) {
    const before = size;
    for (const t of texts) {
      for (const line of t.split("\n")) {
        const n = Buffer.byteLength(line) + 1;
        if (size + n > bytes) return `${out.join("\n")}\n`;
        out.push(line);
        size += n;
      }
    }
    if (size === before) break;
  }
  return `${out.join("\n")}\n`;
}

/** One JSON document of about `bytes`: the parseable items' values, repeated, in one array. */
function jsonUpTo(texts, bytes) {
  const values = texts.filter(parses).map((t) => JSON.parse(t));
  const parts = [];
  let size = 2;
  for (let i = 0; values.length > 0; i++) {
    const text = JSON.stringify(values[i % values.length], null, 2);
    if (size + text.length + 2 > bytes) break;
    parts.push(text);
    size += text.length + 2;
  }
  return `[\n${parts.join(",\n")}\n]\n`;
}

/** A 1 MB input per family, from its items, compressed with no hint. */
export function realThroughputInputs(corpus, kinds) {
  const size = { label: "1 MB", bytes: 1024 * 1024 };
  return kinds
    .filter((k) => corpus.some((i) => i.kind === k))
    .map((kind) => {
      const texts = corpus.filter((i) => i.kind === kind).map((i) => i.content);
      const text = kind === "json" ? jsonUpTo(texts, size.bytes) : linesUpTo(texts, size.bytes);
      return { kind, size, text };
    });
}
