// Holds compress to the golden sha256 per corpus item and throughput input
// (test/golden/compress-sha256.json, written by bench/golden.mjs from the engine before the
// throughput work): performance changes must not alter one byte of any result.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCorpus } from "../bench/corpus.mjs";
import { goldenCases } from "../bench/golden-cases.mjs";
import { compress } from "../src/index.js";

const golden = JSON.parse(
  readFileSync(new URL("./golden/compress-sha256.json", import.meta.url), "utf8"),
) as Record<string, string>;
const cases = goldenCases(loadCorpus());

describe("golden compress results", () => {
  it("covers exactly the cases the golden file names", () => {
    expect(cases.map((c) => c.name).sort()).toEqual(Object.keys(golden).sort());
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s gives the golden result", (_name, c) => {
    const result = compress(c.text, c.options);
    expect(createHash("sha256").update(JSON.stringify(result)).digest("hex")).toBe(golden[c.name]);
  });
});
