import { describe, expect, it } from "vitest";
import { corpusItems } from "./corpus.test-util.js";
import { detect } from "./detect.js";

describe("detect", () => {
  it("recognises each kind from content alone", () => {
    const esc = String.fromCharCode(27);
    const cases: Array<[string, string]> = [
      ['{"a": [1, 2, 3]}', "json"],
      ['{"a":1}\n{"a":2}\n{"a":3}', "ndjson"],
      ["diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b", "diff"],
      [`${esc}[32m✓${esc}[0m ok\n`, "terminal"],
      ["src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.", "diagnostics"],
      ["src/a.ts:1:const a = 1\nsrc/a.ts:2:const b = 2\nsrc/b.ts:9:x()", "grep"],
      ["2026-01-01 10:00:00 INFO a\n2026-01-01 10:00:01 WARN b\n2026-01-01 10:00:02 ERROR c", "log"],
      [
        "TypeError: x is undefined\n    at f (a.js:1:1)\n    at g (b.js:2:2)\n    at h (c.js:3:3)",
        "stacktrace",
      ],
      ["name,age,city\nann,3,rome\nbob,4,oslo\ncid,5,lima\ndan,6,kiev", "table"],
      ["<!doctype html>\n<html><body><p>x</p></body></html>", "html"],
    ];
    for (const [text, kind] of cases) expect(detect(text).kind, text).toBe(kind);
  });

  it("names the language of source code", () => {
    const ts = [
      "import { a } from './a';",
      "",
      "export interface X {",
      "  a: string;",
      "}",
      "",
      "export function f(x: X): string {",
      "  return x.a;",
      "}",
    ];
    expect(detect(ts.join("\n"))).toEqual({ kind: "code", language: "typescript" });
    const py = [
      "import os",
      "",
      "def main(argv):",
      "    if argv:",
      "        return 1",
      "    return 0",
      "",
      "class A:",
      "    pass",
    ];
    expect(detect(py.join("\n"))).toEqual({ kind: "code", language: "python" });
  });

  it("follows a hint that names a kind or the producing tool", () => {
    expect(detect("anything at all", "log").kind).toBe("log");
    expect(detect("anything", "git diff").kind).toBe("diff");
    expect(detect("anything", "grep -rn foo").kind).toBe("grep");
    expect(detect("anything", "tsc --noEmit").kind).toBe("diagnostics");
    expect(detect("anything", "vitest run").kind).toBe("test");
  });

  it("lets valid JSON win over a tool hint, and says plain text when unsure", () => {
    expect(detect('{"numTotalTests": 3}', "vitest run --reporter=json").kind).toBe("json");
    expect(detect("just a few words here").kind).toBe("text");
    expect(detect("").kind).toBe("text");
  });

  it("is deterministic on every real corpus item", () => {
    for (const item of corpusItems())
      expect(detect(item.content, item.hint)).toEqual(detect(item.content, item.hint));
  });
});
