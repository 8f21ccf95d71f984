import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { fabricatedLines } from "./corpus.test-util.js";
import { detect } from "./detect.js";
import { isMarkerLine } from "./markers.js";
import {
  alignedColumns,
  alignedTableStart,
  cellsOf,
  isGrepHeading,
  isPathList,
  isStructuredLog,
} from "./structure.js";

const lines = <T = string>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const pad = (rows: string[][]) => {
  const w = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(w[c]!))).join("   "));
};

describe("structure: columns", () => {
  it("cuts aligned rows exactly at the gaps every row leaves", () => {
    const rows = [
      "NAME      READY   STATUS",
      "api-1     1/1     Running",
      "worker-2  0/1     CrashLoopBackOff",
    ];
    const cols = alignedColumns(rows);
    expect(cols.length).toBe(3);
    expect(cellsOf(rows[2]!, cols)).toEqual(["worker-2", "0/1", "CrashLoopBackOff"]);
  });

  it("merges two columns when one row's cell runs over the gap, so no cell is ever cut", () => {
    const rows = ["a    b", "aaaaaab"];
    expect(alignedColumns(rows).length).toBe(1);
  });

  it("finds a table under a header, or of rows with equal word counts, but not a log", () => {
    const pods = pad([
      ["NAME", "READY", "STATUS", "AGE"],
      ...lines(30, (i) => [`web-${i}`, "1/1", "Running", `${i}d`]),
    ]);
    expect(alignedTableStart(pods)).toBe(0);
    const ls = [
      "total 42",
      ...lines(30, (i) => `-rw-r--r-- 1 root root ${String(i * 100).padStart(5)} Nov 2 10:00 f${i}.txt`),
    ];
    expect(alignedTableStart(ls)).toBe(1);
    const logcat = lines(
      40,
      (i) =>
        `03-17 16:13:${String(i % 60).padStart(2, "0")}.811  1702  2395 D WindowManager: message ${i} ${"x ".repeat(i % 5)}`,
    );
    expect(alignedTableStart(logcat)).toBe(-1);
    expect(isStructuredLog(logcat)).toBe(true);
  });
});

describe("structure: logs, grep headings, path lists", () => {
  it("reads logs in any clock style from a stable prefix shape", () => {
    const WORDS = ["served", "received", "deleted"];
    const styles = [
      (i: number) =>
        `081109 2036${String(i % 60).padStart(2, "0")} ${i % 40} INFO dfs.DataNode: block ${i} ${WORDS[i % 3]}`,
      (i: number) =>
        `17/06/09 20:10:${String(i % 60).padStart(2, "0")} INFO executor.Executor: task ${i} ${WORDS[i % 3]}`,
      (i: number) =>
        `[Sun Dec 04 04:47:${String(i % 60).padStart(2, "0")} 2005] [notice] child ${i} ${WORDS[i % 3]}`,
      (i: number) =>
        `I1201 15:00:${String(i % 60).padStart(2, "0")}.123456       1 event.go:${i}] "${WORDS[i % 3]}"`,
    ];
    for (const style of styles) {
      const text = lines(60, style);
      expect(isStructuredLog(text)).toBe(true);
      expect(detect(text.join("\n")).kind).toBe("log");
    }
    expect(isStructuredLog(lines(60, (i) => `The quick brown fox ${i} jumps.`))).toBe(false);
  });

  it("reads ripgrep's heading form and bare path lists as grep output", () => {
    const heading = [
      "src/a.ts",
      "12:const a = 1;",
      "40:const b = 2;",
      "",
      "src/b.ts",
      "3:let c = 3;",
      "9:let d;",
    ];
    expect(isGrepHeading(heading)).toBe(true);
    const paths = lines(40, (i) => `./src/mod${i % 4}/file${i}.ts`);
    expect(isPathList(paths)).toBe(true);
    expect(detect(paths.join("\n")).kind).toBe("grep");
    expect(isPathList(lines(40, (i) => `pkg/mod${i}.py:${i}`))).toBe(true);
  });
});

describe("aligned tables compress as tables", () => {
  it("keeps the header and whole rows, never dropping words inside cells", () => {
    const rows = [["USER", "PID", "%CPU", "COMMAND"]];
    for (let i = 0; i < 300; i++)
      rows.push([i % 3 ? "www-data" : "root", String(1000 + i), `0.${i % 9}`, "nginx: worker process"]);
    rows.splice(150, 0, ["app", "31337", "98.7", "node /srv/app/dist/worker.js --leak-check"]);
    const text = pad(rows);
    const input = text.join("\n");
    const r = compress(input);
    expect(r.kind).toBe("table");
    expect(r.ratio).toBeGreaterThan(0.7);
    const out = r.output.split("\n");
    expect(out[0]).toBe(text[0]);
    expect(out).toContain(text[150]);
    // Every line is a whole row of the input or a marker: no prose rule touched a cell.
    for (const line of out) expect(text.includes(line) || isMarkerLine(line)).toBe(true);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });
});
