// Test-runner output (vitest, jest, mocha, node --test, pytest, unittest, go test, cargo test).
// Every failure block, error line and summary line the runner printed is kept; what collapses is
// runs of passing-test lines, library/runtime stack frames inside failure blocks (the first frame
// of each trace stays), code frames (the `❯ file:line:col` location above them stays), and a
// block that repeats an earlier one word for word (a runner's second listing of its failures).
// Nothing is summarised that the runner did not print: markers count lines by what they were.
import { pytestResult } from "../../detect.js";
import { countList, renderKept } from "../../lines.js";
import { libraryOf } from "../../shared/frames.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { repeatedBlocks } from "./repeats.js";

const PASS_LINE =
  /^\s*(✓|✔|√)\s|^\s*PASS\s+\S|^\s*(=== RUN|=== PAUSE|=== CONT|--- PASS|--- SKIP)\b|^ok\s+\S+\s+[\d.]+s|^ok \d+\b|^test \S+ \.\.\. ok$|^\s*↓\s|^\w+ \([\w.]+\) \.\.\. (ok|skipped\b.*)$/;
// pytest -v `tests/a.py::test_x PASSED` is read by pytestResult: `\S+::\S+ PASSED` retried at
// every "::" of a long word, quadratic in one line.
function isPassLine(line: string): boolean {
  return PASS_LINE.test(line) || pytestResult(line) === "PASSED";
}

// Each kind names the mark the lines themselves print (a ✔ run is never called ✓).
const PASS_KIND: ReadonlyArray<[RegExp, string]> = [
  [/^\s*✓\s/, "passed (✓)"],
  [/^\s*✔\s/, "passed (✔)"],
  [/^\s*√\s/, "passed (√)"],
  [/^ok \d+\b/, "TAP ok"],
  [/^\s*PASS\s/, "PASS"],
  [/--- PASS|^ok\s/, "go PASS/ok"],
  [/=== (RUN|PAUSE|CONT)/, "go RUN"],
  [/PASSED\b/, "PASSED"],
  [/\.\.\. ok$/, "ok"],
  [/^\s*↓\s|SKIP|skipped/, "skipped"],
];
const FRAME = /^\s+at \S|^\s+❯ \S/;
const CODE_ROW = /^\s+\d+\s?\|/;
const CARET_ROW = /^\s+\|\s*\^/;

function passKind(line: string): string {
  for (const [re, name] of PASS_KIND) if (re.test(line)) return name;
  return "blank";
}

/** Compresses test-runner output, or says why it cannot. */
export function compressTest(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const keep = new Uint8Array(lines.length).fill(1);
  const what: string[] = new Array(lines.length).fill("");
  let i = 0;
  while (i < lines.length) {
    if (!isPassLine(lines[i]!)) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < lines.length && (isPassLine(lines[j + 1]!) || lines[j + 1]!.trim() === "")) j++;
    while (j > i && lines[j]!.trim() === "") j--;
    if (j > i) for (let k = i; k <= j; k++) [keep[k], what[k]] = [0, passKind(lines[k]!)];
    i = j + 1;
  }
  let frameNo = 0;
  lines.forEach((line, k) => {
    if (!FRAME.test(line)) {
      frameNo = 0;
      if (CODE_ROW.test(line) || CARET_ROW.test(line)) [keep[k], what[k]] = [0, "code frame rows"];
      return;
    }
    frameNo++;
    const lib = libraryOf(line);
    if (frameNo > 1 && lib !== undefined) [keep[k], what[k]] = [0, `${lib} frames`];
  });
  // A failure block printed a second time (node --test's "failing tests:" list) folds whole.
  for (const b of repeatedBlocks(lines)) {
    const why = `same text as lines ${b.source + 1}-${b.source + b.length} (indentation aside)`;
    for (let k = b.from; k < b.from + b.length; k++) [keep[k], what[k]] = [0, why];
  }
  if (!keep.includes(0)) return "not_smaller";
  const facts = (from: number, to: number): string[] => {
    const counts = new Map<string, number>();
    for (let k = from; k <= to; k++) counts.set(what[k]!, (counts.get(what[k]!) ?? 0) + 1);
    return [countList(counts, 4)];
  };
  return {
    output: renderKept(lines, keep, { facts, ...(ctx.handle ? { handle: ctx.handle } : {}) }),
    lossless: false,
  };
}
