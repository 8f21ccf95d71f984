// Model-free fidelity graders for one corpus item. The engine is passed in (the bench uses the
// built dist/, the tests use src/), so the same code grades both. For each item:
//   - token reduction of compress() with a fixed handle ("ccr_" + sha256(original)[0..32]);
//   - each gold answer is `visible` (in the output, markers included), `needs_retrieve` (not
//     visible, but narrow(original, gold.query ?? gold.text) returns it) or `lost`;
//   - fabrication: every output line must be a line or substring of a line of the original
//     (terminal items: of the original with escapes stripped and redraws split) or a marker line.
//     Kinds whose compressor changes representation (json: TOON/compact re-encoding, html:
//     visible text, prose: caveman rules) may instead use only words that occur in the original;
//   - determinism (two calls), idempotence (compress of the output changes nothing), byte-exact
//     retrieve (the handle hashes the stored bytes; lines:1-N gives the original back), and the
//     TOON round trip for JSON items.
import { isDeepStrictEqual } from "node:util";
import { baselines } from "./baselines.mjs";
import { sha256 } from "./corpus.mjs";

/** Kinds whose output may re-encode the original rather than quote its lines. */
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
  const views = [item.content];
  if (item.kind === "terminal") views.push(terminalView(item.content));
  const vocabulary = REENCODING_KINDS.has(item.kind) ? new Set(words(item.content)) : null;
  const bad = [];
  for (const line of output.split("\n")) {
    if (line.trim() === "" || engine.isMarkerLine(line)) continue;
    if (views.some((v) => v.includes(line) || v.includes(line.trim()))) continue;
    if (vocabulary && words(line).every((w) => vocabulary.has(w))) continue;
    bad.push(line);
  }
  return { count: bad.length, sample: bad.slice(0, 5).map((l) => l.slice(0, 200)) };
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
  const view = engine.narrow(item.content, "lines:1-999999999", { hint: item.hint });
  return view.output === item.content;
}

function toonRoundTrip(engine, item) {
  if (item.kind !== "json") return null;
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
