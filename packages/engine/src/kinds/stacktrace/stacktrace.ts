// Stack traces (JavaScript, Python, Java/JVM). Every message line ("Error: ...", "Caused by:",
// Python's exception line) is kept, with the first frames of each trace and the first frames of
// the application's own code in each of its modules (Java package, source file); runs of library and runtime frames (node_modules, node:internal,
// site-packages, java.*) collapse into a marker that counts them per package, and so do frames
// that repeat one already shown in the same trace (recursion). A recursion's cycle (from a frame's
// first showing to its first repeat) is kept whole once when it runs through the app's own frames, so the loop shows.

import { countList, renderKept } from "../../lines.js";
import { libraryOf } from "../../shared/frames.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";

const FRAME = /^\s+at \S|^\s+File ".*", line \d+|^\tat |^\s+\.\.\. \d+ (more|common frames omitted)$/;
const FIRST_FRAMES = 2;
/** Application frames kept per module (Java package, source file) in one trace, past the first. */
const APP_FRAMES_PER_MODULE = 1;
/** Longest recursion cycle (in frames) shown whole; a longer one stays folded. */
const CYCLE_MAX_FRAMES = 8;

/** The module an application frame runs in: a Java package, or the source file. */
function moduleOf(line: string): string {
  const java = /^\s*at ([\w$.]+)\.[\w$<>]+\.[\w$<>]+\(/.exec(line);
  if (java) return java[1]!;
  const file = /File "([^"]+)"|\(([^()]+?):\d+(?::\d+)?\)$|^\s*at ([^\s()]+?):\d+(?::\d+)?$/.exec(line);
  return file ? (file[1] ?? file[2] ?? file[3]!) : "";
}

/** Compresses stack traces, or says why they cannot shrink. */
export function compressStacktrace(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const keep = new Uint8Array(lines.length).fill(1);
  const why: string[] = new Array(lines.length).fill("");
  let frameNo = 0;
  let seen = new Map<string, number>();
  let cycleShown = false;
  let perModule = new Map<string, number>();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!FRAME.test(line)) {
      // A message line ("Error: ...", "Caused by: ...") starts a new trace.
      frameNo = 0;
      seen = new Map();
      cycleShown = false;
      perModule = new Map();
      i++;
      continue;
    }
    // Python prints the code line (and carets) under each frame; they belong to the frame.
    let end = i;
    if (/^\s+File "/.test(line))
      while (end + 1 < lines.length && !FRAME.test(lines[end + 1]!) && /^\s{4,}\S/.test(lines[end + 1]!))
        end++;
    frameNo++;
    const lib = libraryOf(line);
    const mod = lib === undefined ? moduleOf(line) : "";
    const inModule = (perModule.get(mod) ?? 0) + 1;
    if (lib === undefined) perModule.set(mod, inModule);
    // Past the first frames, the application's own frames stay for the first few of each module
    // (where the trace enters it); a long walk through one module folds with its name.
    const reason =
      seen.has(line) && frameNo > 1
        ? "repeated frames"
        : frameNo <= FIRST_FRAMES
          ? ""
          : lib !== undefined
            ? lib
            : mod !== "" && inModule > APP_FRAMES_PER_MODULE
              ? (mod.split("/").pop() ?? mod)
              : "";
    const first = seen.get(line);
    if (first !== undefined && frameNo > 1 && !cycleShown) {
      // The first repeat closes the cycle: its frames since that line's first showing are shown.
      cycleShown = true;
      // A cycle inside a library (a parser's own recursion) stays folded: only the app's is shown.
      let frames = 0;
      let app = false;
      for (let k = first; k < i; k++)
        if (FRAME.test(lines[k]!)) {
          frames++;
          app ||= libraryOf(lines[k]!) === undefined;
        }
      if (app && frames <= CYCLE_MAX_FRAMES) for (let k = first; k < i; k++) [keep[k], why[k]] = [1, ""];
    }
    if (first === undefined) seen.set(line, i);
    if (reason) for (let k = i; k <= end; k++) [keep[k], why[k]] = [0, reason];
    i = end + 1;
  }
  if (!keep.includes(0)) return "not_smaller";
  const facts = (from: number, to: number): string[] => {
    const counts = new Map<string, number>();
    for (let k = from; k <= to; k++)
      if (FRAME.test(lines[k]!)) counts.set(why[k]!, (counts.get(why[k]!) ?? 0) + 1);
    return [`frames: ${countList(counts, 4)}`];
  };
  return {
    output: renderKept(lines, keep, { unit: "line", facts, ...(ctx.handle ? { handle: ctx.handle } : {}) }),
    lossless: false,
  };
}
