#!/usr/bin/env node
// `pnpm --filter @caveman/engine bench`: grades the built engine (../dist/index.js) on the
// benchmark corpus and prints, per kind and overall, the median token reduction beside each
// baseline (raw, minified JSON, TOON alone, head+tail truncation to the same budget), gold
// answers visible / needs_retrieve / lost, fidelity failures, the targets, and compress
// throughput for 10 KB, 1 MB and 10 MB inputs. Everything goes to writeResults("engine", ...).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { printTable, writeResults } from "@caveman/bench";
import * as engine from "../dist/index.js";
import { loadCorpus } from "./corpus.mjs";
import { gradeItem, handleFor } from "./graders.mjs";
import { meetsTarget, summarize } from "./summary.mjs";
import { measureThroughput } from "./throughput.mjs";

const pct = (x) => (x === null || x === undefined ? "-" : `${(x * 100).toFixed(1)}%`);

/** Prints a per-item hash of compress output; run in a fresh process to compare with this one. */
const DIGEST_SCRIPT = `
  import * as engine from ${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)};
  import { loadCorpus } from ${JSON.stringify(new URL("./corpus.mjs", import.meta.url).href)};
  import { handleFor } from ${JSON.stringify(new URL("./graders.mjs", import.meta.url).href)};
  import { createHash } from "node:crypto";
  const out = {};
  for (const item of loadCorpus()) {
    const res = engine.compress(item.content, { hint: item.hint, handle: handleFor(item.content) });
    out[item.id] = createHash("sha256").update(res.output).digest("hex");
  }
  process.stdout.write(JSON.stringify(out));`;

/** Items whose output differs in a fresh process (or the child's error). */
function crossProcessDifferences(corpus) {
  const res = spawnSync(process.execPath, ["--input-type=module", "-e", DIGEST_SCRIPT], { encoding: "utf8" });
  if (res.status !== 0) return [`child process failed: ${res.stderr.slice(0, 500)}`];
  const child = JSON.parse(res.stdout);
  return corpus
    .filter((item) => {
      const here = engine.compress(item.content, { hint: item.hint, handle: handleFor(item.content) });
      return child[item.id] !== createHash("sha256").update(here.output).digest("hex");
    })
    .map((item) => item.id);
}

const corpus = loadCorpus();
const grades = corpus.map((item) => gradeItem(engine, item));
const rows = summarize(grades);

printTable(
  "engine: items",
  grades.map((g) => ({
    item: g.id,
    kind: g.kind,
    detected: g.detected,
    tokensIn: g.tokensIn,
    tokensOut: g.tokensOut,
    reduction: pct(g.reduction),
    reason: g.reason ?? "",
    "vis/ret/lost": `${g.visible}/${g.needsRetrieve}/${g.lost}`,
    headTailLost: g.baselines.headTail.lost,
    fabricated: g.fabricated.count,
    ok: g.deterministic && g.idempotent && g.retrieveExact && g.toonRoundTrip !== false ? "yes" : "NO",
  })),
);
printTable(
  "engine: median token reduction per kind (ours vs baselines) and gold answers",
  rows.map((r) => ({
    kind: r.kind,
    items: r.items,
    ours: pct(r.medianReduction),
    target: r.target === null ? "-" : `>= ${pct(r.target)}`,
    met: meetsTarget(r) === null ? "-" : meetsTarget(r) ? "yes" : "NO",
    raw: pct(0),
    minifiedJson: pct(r.minifiedReduction),
    toonAlone: pct(r.toonReduction),
    headTail: pct(r.headTailReduction),
    visible: r.visible,
    needsRetrieve: r.needsRetrieve,
    lost: r.lost,
    headTailLost: r.headTailLost,
  })),
);
printTable(
  "engine: fidelity checks (all should be 0)",
  rows.map((r) => ({
    kind: r.kind,
    passedThrough: r.passedThrough,
    fabricatedLines: r.fabricatedLines,
    notDeterministic: r.notDeterministic,
    notIdempotent: r.notIdempotent,
    retrieveNotExact: r.retrieveNotExact,
    toonRoundTripFailed: r.toonRoundTripFailed,
  })),
);

const throughput = await measureThroughput(engine, corpus);
printTable(
  "engine: compress throughput (target >= 20 MB/s at 1 MB)",
  throughput.map((t) => ({ ...t, reduction: pct(t.reduction) })),
);

const overall = rows.at(-1);
const at1mb = throughput.filter((t) => t.size === "1 MB");
const targets = [
  ...rows
    .filter((r) => r.target !== null)
    .map((r) => ({
      target: `${r.kind} median reduction >= ${pct(r.target)}`,
      achieved: pct(r.medianReduction),
      met: meetsTarget(r) ? "yes" : "NO",
    })),
  { target: "gold answers lost = 0", achieved: String(overall.lost), met: overall.lost === 0 ? "yes" : "NO" },
  ...at1mb.map((t) => ({
    target: `${t.kind} throughput at 1 MB >= 20 MB/s`,
    achieved: `${t.mbPerSec.toFixed(1)} MB/s`,
    met: t.mbPerSec >= 20 ? "yes" : "NO",
  })),
];
printTable("engine: the issue's targets", targets);

const crossProcess = crossProcessDifferences(corpus);
const crossProcessDeterministic = crossProcess.length === 0;
const detail = crossProcessDeterministic ? "" : ` (differs: ${crossProcess.join(", ")})`;
process.stdout.write(
  `\ncross-process determinism, fresh process vs this one: ${crossProcessDeterministic}${detail}\n`,
);

writeResults("engine", {
  corpus: { items: corpus.length, bytes: corpus.reduce((n, i) => n + i.bytes, 0) },
  perKind: rows,
  items: grades,
  throughput,
  targets,
  crossProcessDeterministic,
  crossProcessDifferences: crossProcess,
});
