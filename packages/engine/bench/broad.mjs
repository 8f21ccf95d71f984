// The broad-corpus section of the engine bench (issue 13): every item of corpus/broad graded with
// no hint (what a hook or proxy sees) and with its producing command as hint, per family, with
// marker economics: marker tokens as a share of output tokens, and markers that cost at least as
// many tokens as the original lines they stand for. `before` (an older build of the engine,
// passed as --before=<dist/index.js>) is graded in the same run so the figures compare.
import { gradeItem, terminalView } from "./graders.mjs";
import { median } from "./summary.mjs";

const JSON_WHERE = /\((\d+)-(\d+) of \d+ at (\/[^)]*)\)/;

/** The value at an RFC 6901 pointer ("/" is the root, as the engine's markers write it). */
function atPointer(root, pointer) {
  let value = root;
  for (const raw of pointer === "/" ? [] : pointer.slice(1).split("/")) {
    if (value === null || typeof value !== "object") return undefined;
    value = value[raw.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return value;
}

/**
 * Tokens of what a JSON marker stands for: the elements (or members) it names, as compact JSON
 * writes them (the fewest tokens they can cost, so a marker is never flattered), or null when
 * the marker names no JSON span.
 */
function jsonElided(engine, root, marker) {
  const m = JSON_WHERE.exec(marker);
  if (!m || root === undefined) return null;
  const container = atPointer(root, m[3]);
  if (container === null || typeof container !== "object") return null;
  const from = Number(m[1]);
  const to = Number(m[2]);
  const parts = Array.isArray(container)
    ? container.slice(from, to + 1).map((v) => JSON.stringify(v))
    : Object.keys(container)
        .slice(from, to + 1)
        .map((k) => `${JSON.stringify(k)}:${JSON.stringify(container[k])}`);
  return engine.countTokens(parts.join(","));
}

/** The line span a marker names (`lines a-b elided`, `3 messages elided (lines a-b)`). */
const SPAN = /^\s*\[caveman: (?:[^\]]*?\()?lines? (\d+)(?:-(\d+))?[ );\]]/;
/** A region marker, `[caveman: N of lines a-b elided ...]`: N lines of a-b elided, the rest follow it. */
const REGION = /\[caveman: (\d+) of lines? (\d+)(?:-(\d+))? /;

/**
 * Marker economics of one output: tokens of marker text (all of it, facts included), and the
 * markers that cost at least as many tokens as the input they sit in place of. Kept lines are
 * matched to the input in order, so the lines a run marker replaces are exactly those between
 * the kept lines around it; a region marker replaces the lines of its span that the kept lines
 * after it do not show; a marker naming a line span, those lines; a JSON marker, the elements or
 * members its span names.
 */
function markerCosts(engine, input, output) {
  const inLines = input.split("\n");
  const outLines = output.split("\n");
  let markerTokens = 0;
  let markers = 0;
  let costly = 0;
  let wasted = 0;
  /** The costly markers themselves, with the tokens they elide, for a probe to print. */
  const costlyLines = [];
  let current = "";
  const judge = (tokens, elided, line = current) => {
    if (tokens >= elided) {
      costly++;
      wasted += tokens - elided;
      costlyLines.push(`${elided} <= ${line}`);
    }
  };
  let root;
  try {
    root = JSON.parse(input);
  } catch {
    root = undefined;
  }
  // Inline JSON markers (thinned JSON on few lines) are costed by the span they name.
  if (root !== undefined && !outLines.some((l) => engine.isMarkerLine(l))) {
    for (const m of output.matchAll(/\[caveman: [^\]]*\]/g)) {
      const tokens = engine.countTokens(m[0]);
      current = m[0];
      markers++;
      markerTokens += tokens;
      const elided = jsonElided(engine, root, m[0]);
      if (elided !== null) judge(tokens, elided);
    }
    return { markers, markerTokens, costly, wasted, costlyLines };
  }
  let at = 0;
  let pending = null;
  let region = null;
  const close = (end) => {
    if (!pending) return;
    judge(pending.tokens, engine.countTokens(inLines.slice(pending.from, end).join("\n")), pending.line);
    pending = null;
  };
  const closeRegion = () => {
    if (!region) return;
    const elided = [];
    for (let k = region.from; k <= region.to; k++) if (!region.shown.has(k)) elided.push(inLines[k]);
    judge(region.tokens, engine.countTokens(elided.join("\n")), region.line);
    at = Math.max(at, region.to + 1);
    region = null;
  };
  for (let o = 0; o < outLines.length; o++) {
    const line = outLines[o];
    if (engine.isMarkerLine(line)) {
      const tokens = engine.countTokens(line);
      current = line;
      markers++;
      markerTokens += tokens;
      if (line.trimStart().startsWith('"')) {
        // A JSON-form marker: costed by its span when it names one, else counted only.
        const elided = root === undefined ? null : jsonElided(engine, root, line);
        if (elided !== null) judge(tokens, elided);
        continue;
      }
      close(at);
      closeRegion();
      const r = REGION.exec(line);
      if (r) {
        const from = Number(r[2]) - 1;
        const to = Number(r[3] ?? r[2]) - 1;
        region = { from, to, tokens, line, shown: new Set(), left: to - from + 1 - Number(r[1]) };
        at = from;
      } else {
        const span = SPAN.exec(line);
        if (span) {
          // A marker naming its lines is judged against them: the lines it stands for, less the
          // shortened lines above it that it counts ("of the lines above"), which stay shown.
          const from = Number(span[1]) - 1;
          const to = Number(span[2] ?? span[1]) - 1;
          let elided = engine.countTokens(inLines.slice(from, to + 1).join("\n"));
          if (line.includes("of the lines above"))
            elided -= engine.countTokens(outLines.slice(Math.max(0, o - (to - from + 1)), o).join("\n"));
          judge(tokens, elided, line);
          at = Math.max(at, to + 1);
        } else pending = { from: at, tokens, line };
      }
      continue;
    }
    if (region && region.left > 0) {
      // A kept line of the region: the next line of the span equal to it.
      let j = at;
      while (j <= region.to && inLines[j] !== line) j++;
      if (j <= region.to) {
        region.shown.add(j);
        region.left--;
        at = j + 1;
        continue;
      }
    }
    closeRegion();
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
  closeRegion();
  close(inLines.length);
  return { markers, markerTokens, costly, wasted, costlyLines };
}

/** A recovery handle of the length the store computes (`ccr_` and 32 hex digits). */
const BENCH_HANDLE = "ccr_0123456789abcdef0123456789abcdef";

/** Grades every broad item with and without its hint, and marker economics of the no-hint output. */
export function gradeBroad(engine, corpus) {
  return corpus.map((item) => {
    const plain = gradeItem(engine, { ...item, hint: undefined }, { baselines: false });
    const hinted = gradeItem(engine, item, { baselines: false });
    const out = engine.compress(item.content, {}).output;
    const hintedOut = engine.compress(item.content, { hint: item.hint }).output;
    // As the server and the hooks call it: with a recovery handle, which one marker then names.
    const handled = engine.compress(item.content, { handle: BENCH_HANDLE });
    // Terminal output is compressed as the terminal shows it: its markers name those lines.
    const shown = item.kind === "terminal" ? terminalView(item.content) : item.content;
    return {
      id: item.id,
      family: item.family,
      kind: item.kind,
      tokensIn: plain.tokensIn,
      plain,
      hinted,
      markers: markerCosts(engine, shown, out),
      hintedMarkers: markerCosts(engine, shown, hintedOut),
      handledMarkers: { ...markerCosts(engine, shown, handled.output), tokensOut: handled.tokensOut },
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
        // With the handle the server passes: its ~20 tokens sit in one marker per output.
        markerShareWithHandle:
          sum(rows, (r) => r.handledMarkers.markerTokens) / sum(rows, (r) => r.handledMarkers.tokensOut),
        costlyMarkers: sum(rows, (r) => r[mk(g)].costly),
        wastedTokens: sum(rows, (r) => r[mk(g)].wasted),
      },
    ]),
  );
}
