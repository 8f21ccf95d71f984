// Model-free fidelity graders for one corpus item. The engine is passed in (the bench uses the
// built dist/, the tests use src/), so the same code grades both. For each item:
//   - token reduction of compress() with a fixed handle ("ccr_" + sha256(original)[0..32]);
//   - each gold answer is `visible` (in the output, markers included), `needs_retrieve` (not
//     visible, but narrow(original, gold.query ?? gold.text) returns it) or `lost`;
//   - fabrication: every output line must be a line or substring of a line of the original
//     (terminal items: of the original with escapes stripped and redraws split) or a marker line.
//     Kinds whose compressor changes representation are held to what their form allows: json
//     output must parse (as JSON, or TOON decoded strictly) and every member and element it holds
//     must equal the original's at the same path, markers standing for exactly the counted run;
//     html (visible text) and prose (caveman word drops) output lines must be, word for word, a
//     subsequence of the original's words in document order;
//   - determinism (two calls), idempotence (compress of the output changes nothing), byte-exact
//     retrieve (the handle hashes the stored bytes; lines:1-N gives the original back), and the
//     TOON round trip for JSON items.
import { isDeepStrictEqual } from "node:util";
import { baselines } from "./baselines.mjs";
import { sha256 } from "./corpus.mjs";

/** Kinds whose output may re-encode the original rather than quote its lines (graded by form). */
export const REENCODING_KINDS = new Set(["json", "html", "prose"]);

export function handleFor(original) {
  return `ccr_${sha256(original).slice(0, 32)}`;
}

// CSI and OSC sequences and two-byte escapes; built from a string because the escape byte is a
// control character that a regex literal should not hold.
const E = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
const ANSI = new RegExp(
  `${E}\\[[0-9;?]*[ -/]*[@-~]|${E}\\][^${BEL}${E}]*(?:${BEL}|${E}\\\\)|${E}[@-Z\\\\-_]`,
  "g",
);

/** The original as a terminal shows it: escapes stripped, carriage-return redraws on their own lines. */
export function terminalView(text) {
  return text.replace(ANSI, "").replace(/\r(?!\n)/g, "\n");
}

const squash = (s) => s.replace(/\s+/g, " ").trim();
const words = (s) => s.split(/[^\p{L}\p{N}_]+/u).filter(Boolean);

/** True when `text` occurs in `haystack` verbatim or up to runs of whitespace. */
export function contains(haystack, text) {
  return haystack.includes(text) || squash(haystack).includes(squash(text));
}

/** Output lines that are neither quoted from the original nor markers (sampled, with a count). */
export function fabricatedLines(engine, item, output) {
  if (output === item.content) return { count: 0, sample: [] };
  // A JSON item that does not parse (a Read window, a cut-off file) is held to lines.
  if (item.kind === "json" && parses(item.content)) return fabricatedJson(engine, item, output);
  if (item.kind === "html" || item.kind === "prose") return fabricatedWords(engine, item, output);
  const views = [item.content];
  // Escapes are what a terminal interprets, whatever the item's kind (tsc --pretty, coloured test runs).
  if (item.kind === "terminal" || new RegExp(ANSI.source).test(item.content))
    views.push(terminalView(item.content));
  const bad = [];
  for (const line of output.split("\n")) {
    if (line.trim() === "" || engine.isMarkerLine(line)) continue;
    if (views.some((v) => v.includes(line) || v.includes(line.trim()))) continue;
    bad.push(line);
  }
  return report(bad);
}

function report(bad) {
  return { count: bad.length, sample: bad.slice(0, 5).map((l) => l.slice(0, 200)) };
}

/** Words of each output line, in order, must be found in order among the original's words. */
function fabricatedWords(engine, item, output) {
  const source = words(item.content);
  let cursor = 0;
  const bad = [];
  for (const line of output.split("\n")) {
    if (line.trim() === "" || engine.isMarkerLine(line)) continue;
    let at = cursor;
    let ok = true;
    for (const w of words(line)) {
      while (at < source.length && source[at] !== w) at++;
      if (at === source.length) {
        ok = false;
        break;
      }
      at++;
    }
    if (ok) cursor = at;
    else bad.push(line);
  }
  return report(bad);
}

const MARKER_COUNT = /^\[caveman: (\d+) /;

/** Number of units a JSON marker string stands for, or -1 when `text` is not a marker. */
function markerCount(engine, text) {
  if (typeof text !== "string" || !engine.isMarkerLine(text)) return -1;
  const m = MARKER_COUNT.exec(text);
  return m ? Number(m[1]) : -1;
}

/**
 * Where `out` departs from `orig` (a JSON pointer), or null when every member and element of
 * `out` equals the original's at the same path and each marker stands for exactly the run of
 * elements or members it counts, in order.
 */
function jsonMismatch(engine, out, orig, path) {
  if (out === null || typeof out !== "object" || orig === null || typeof orig !== "object")
    return isDeepStrictEqual(out, orig) ? null : path || "/";
  if (Array.isArray(out) !== Array.isArray(orig)) return path || "/";
  if (Array.isArray(out)) {
    let j = 0;
    for (const el of out) {
      const n = markerCount(engine, el);
      if (n > 0) {
        j += n;
        continue;
      }
      if (j >= orig.length) return `${path}/${j}`;
      const bad = jsonMismatch(engine, el, orig[j], `${path}/${j}`);
      if (bad !== null) return bad;
      j++;
    }
    return j === orig.length ? null : `${path} (length ${j} != ${orig.length})`;
  }
  const keys = Object.keys(orig);
  let j = 0;
  for (const key of Object.keys(out)) {
    const n = out[key] === null ? markerCount(engine, key) : -1;
    if (n > 0) {
      j += n;
      continue;
    }
    if (keys[j] !== key) return `${path}/${key}`;
    const bad = jsonMismatch(engine, out[key], orig[key], `${path}/${key}`);
    if (bad !== null) return bad;
    j++;
  }
  return j === keys.length ? null : `${path} (members ${j} != ${keys.length})`;
}

function fabricatedJson(engine, item, output) {
  let value;
  try {
    value = JSON.parse(output);
  } catch {
    const dec = engine.toonDecode(output);
    if (!dec.ok) return report([`output is neither JSON nor TOON: ${output.slice(0, 120)}`]);
    value = JSON.parse(dec.output);
  }
  const bad = jsonMismatch(engine, value, JSON.parse(item.content), "");
  return report(bad === null ? [] : [`JSON differs from the original at ${bad}`]);
}

function goldStatus(engine, item, output) {
  return item.gold.map((g) => {
    if (contains(output, g.text)) return { text: g.text, status: "visible" };
    const view = engine.narrow(item.content, g.query ?? g.text, { hint: item.hint });
    return { text: g.text, status: contains(view.output, g.text) ? "needs_retrieve" : "lost" };
  });
}

function retrieveExact(engine, item, handle) {
  if (handleFor(item.content) !== handle) return false;
  const view = engine.narrow(item.content, "lines:1-999999999", {
    hint: item.hint,
    budget: Number.POSITIVE_INFINITY,
  });
  return view.output === item.content;
}

/** True when `text` is one JSON document. */
export function parses(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function toonRoundTrip(engine, item) {
  if (item.kind !== "json" || !parses(item.content)) return null;
  const enc = engine.toonEncode(item.content);
  if (!enc.ok) return false;
  const dec = engine.toonDecode(enc.output);
  return dec.ok && isDeepStrictEqual(JSON.parse(dec.output), JSON.parse(item.content));
}

/**
 * Grade one item. `options.baselines` (default true) adds the baseline figures; the tests skip
 * them. Returns plain data (no functions) so it can be written to results.json as is.
 */
export function gradeItem(engine, item, options = {}) {
  const handle = handleFor(item.content);
  const opts = { hint: item.hint, handle };
  const started = performance.now();
  const first = engine.compress(item.content, opts);
  const ms = performance.now() - started;
  const second = engine.compress(item.content, opts);
  const again = engine.compress(first.output, opts);
  const golds = goldStatus(engine, item, first.output);
  const count = (s) => golds.filter((g) => g.status === s).length;
  const grade = {
    id: item.id,
    kind: item.kind,
    detected: first.kind,
    bytes: item.bytes,
    tokensIn: first.tokensIn,
    tokensOut: first.tokensOut,
    reduction: first.reason ? 0 : 1 - first.tokensOut / first.tokensIn,
    reason: first.reason ?? null,
    lossless: first.lossless,
    compressMs: ms,
    visible: count("visible"),
    needsRetrieve: count("needs_retrieve"),
    lost: count("lost"),
    golds,
    fabricated: fabricatedLines(engine, item, first.output),
    deterministic: second.output === first.output && second.ratio === first.ratio,
    idempotent: again.output === first.output,
    passThroughIsExact: first.reason ? first.output === item.content : true,
    retrieveExact: retrieveExact(engine, item, handle),
    toonRoundTrip: toonRoundTrip(engine, item),
  };
  if (options.baselines !== false) grade.baselines = baselines(engine, item, first.tokensIn, first.tokensOut);
  return grade;
}
