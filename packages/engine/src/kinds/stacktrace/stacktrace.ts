// Stack traces (JavaScript, Python, Java/JVM). Every message line ("Error: ...", "Caused by:",
// Python's exception line) is kept, with the first frames of each trace and every frame in the
// application's own code; runs of library and runtime frames (node_modules, node:internal,
// site-packages, java.*) collapse into a marker that counts them per package, and so do frames
// that repeat one already shown in the same trace (recursion).

import { countList, renderKept } from "../../lines.js";
import { libraryOf } from "../../shared/frames.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";

const FRAME = /^\s+at \S|^\s+File ".*", line \d+|^\tat |^\s+\.\.\. \d+ (more|common frames omitted)$/;
const FIRST_FRAMES = 3;

/** Compresses stack traces, or says why they cannot shrink. */
export function compressStacktrace(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const keep = new Uint8Array(lines.length).fill(1);
  const why: string[] = new Array(lines.length).fill("");
  let frameNo = 0;
  let seen = new Set<string>();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!FRAME.test(line)) {
      // A message line ("Error: ...", "Caused by: ...") starts a new trace.
      frameNo = 0;
      seen = new Set();
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
    const reason =
      seen.has(line) && frameNo > 1
        ? "repeated frames"
        : frameNo > FIRST_FRAMES && lib !== undefined
          ? lib
          : "";
    seen.add(line);
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
