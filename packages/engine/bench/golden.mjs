#!/usr/bin/env node
// Writes test/golden/compress-sha256.json from the built engine (../dist/index.js, or the dist
// given as the first argument): a sha256 of the whole compress result (output, counts, flags) per
// corpus item and option set, and per 10 KB / 1 MB throughput input. test/golden.test.ts holds the
// engine to it, so a speed-up cannot change a byte. Regenerate only for an intended output change.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { loadCorpus } from "./corpus.mjs";
import { goldenCases } from "./golden-cases.mjs";

const distArg = process.argv[2];
const engine = await import(distArg ? pathToFileURL(distArg).href : "../dist/index.js");
const out = {};
for (const c of goldenCases(loadCorpus())) {
  out[c.name] = createHash("sha256")
    .update(JSON.stringify(engine.compress(c.text, c.options)))
    .digest("hex");
}
const file = new URL("../test/golden/compress-sha256.json", import.meta.url);
writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`wrote ${Object.keys(out).length} hashes to ${file.pathname}\n`);
