#!/usr/bin/env node
// `pnpm --filter @caveman/engine bench`: grades the built engine (../dist/index.js) on the
// benchmark corpus and prints, per kind and overall, the median token reduction beside each
// baseline (raw, minified JSON, TOON alone, head+tail truncation to the same budget), gold
// answers visible / needs_retrieve / lost, fidelity failures, the issue's targets, and compress
// throughput for 10 KB, 1 MB and 10 MB inputs; then the broad corpus (corpus/broad) per family,
// with no hint and with the producing command, marker economics and issue 13's targets; and the
// hostile-inputs table (time and peak RSS per input, issue 18). Everything goes to
// writeResults("engine", ...).
//
//   node bench/run.mjs [--before=<dist/index.js of an older build>] [--broad-only] [--no-hostile]
// --before grades that build in the same run, so before/after figures come from one run.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { printTable, writeResults } from "@caveman/bench";
import * as engine from "../dist/index.js";
import { broadSummary, gradeBroad } from "./broad.mjs";
import { corpusDir, loadCorpus } from "./corpus.mjs";
import { gradeItem, handleFor } from "./graders.mjs";
import { runHostile } from "./hostile.mjs";
import { meetsTarget, summarize } from "./summary.mjs";
import { measureThroughputs } from "./throughput.mjs";

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

const flag = (name) => process.argv.includes(name);
const beforeArg = process.argv.find((a) => a.startsWith("--before="))?.slice("--before=".length);
const beforeUrl = beforeArg ? pathToFileURL(resolve(beforeArg)).href : null;
const before = beforeUrl ? await import(beforeUrl) : null;
const broadOnly = flag("--broad-only");

const corpus = loadCorpus();
const grades = broadOnly ? [] : corpus.map((item) => gradeItem(engine, item));
let rows = [];
let throughput = [];
let beforeThroughput = null;
let load = null;
let targets = [];
let crossProcess = [];
let crossProcessDeterministic = null;
if (!broadOnly) {
  rows = summarize(grades, engine.CONTENT_KINDS);

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

  // Wall-clock figures depend on what else runs: the load average is printed beside them.
  const loadBefore = loadavg();
  [throughput, beforeThroughput = null] = await measureThroughputs(
    before ? [engine, before] : [engine],
    corpus,
  );
  load = { before: loadBefore, after: loadavg(), cores: cpus().length };
  const la = (l) => l.map((x) => x.toFixed(2)).join(" / ");
  process.stdout.write(
    `\nload average (1 / 5 / 15 min) on ${load.cores} cores: ${la(load.before)} before the throughput runs, ${la(load.after)} after\n`,
  );
  const mbs = (x) => `${x.toFixed(1)}`;
  printTable(
    "engine: compress throughput, MB/s by wall clock and by CPU time (target >= 20 MB/s at 1 MB)",
    throughput.map((t, i) => ({
      kind: t.kind,
      size: t.size,
      bytes: t.bytes,
      ...(beforeThroughput
        ? { beforeWall: mbs(beforeThroughput[i].mbPerSec), beforeCpu: mbs(beforeThroughput[i].cpuMbPerSec) }
        : {}),
      wall: mbs(t.mbPerSec),
      cpu: mbs(t.cpuMbPerSec),
      reduction: pct(t.reduction),
      reason: t.reason,
    })),
  );

  const overall = rows.at(-1);
  const at1mb = throughput.filter((t) => t.size === "1 MB");
  targets = [
    ...rows
      .filter((r) => r.target !== null)
      .map((r) => ({
        target: `${r.kind} median reduction >= ${pct(r.target)}`,
        achieved: pct(r.medianReduction),
        met: meetsTarget(r) ? "yes" : "NO",
      })),
    {
      target: "gold answers lost = 0",
      achieved: String(overall.lost),
      met: overall.lost === 0 ? "yes" : "NO",
    },
    ...at1mb.map((t) => ({
      target: `${t.kind} throughput at 1 MB >= 20 MB/s`,
      achieved: `${t.mbPerSec.toFixed(1)} MB/s`,
      met: t.mbPerSec >= 20 ? "yes" : "NO",
    })),
  ];
  printTable("engine: the issue's targets", targets);

  crossProcess = crossProcessDifferences(corpus);
  crossProcessDeterministic = crossProcess.length === 0;
  const detail = crossProcessDeterministic ? "" : ` (differs: ${crossProcess.join(", ")})`;
  process.stdout.write(
    `\ncross-process determinism, fresh process vs this one: ${crossProcessDeterministic}${detail}\n`,
  );
}

const broad = loadCorpus(join(corpusDir, "broad"));
const after = gradeBroad(engine, broad);
const prior = before ? gradeBroad(before, broad) : null;
const priorById = new Map((prior ?? []).map((r) => [r.id, r]));
printTable(
  "engine: broad corpus per family (no hint unless marked; markers = share of output tokens)",
  after.map((r) => {
    const b = priorById.get(r.id);
    return {
      family: r.family,
      tokensIn: r.tokensIn,
      ...(b ? { before: pct(b.plain.reduction), beforeKind: b.plain.detected } : {}),
      after: pct(r.plain.reduction),
      kind: r.plain.detected,
      reason: r.plain.reason ?? "",
      "after+hint": pct(r.hinted.reduction),
      "vis/ret/lost": `${r.plain.visible}/${r.plain.needsRetrieve}/${r.plain.lost}`,
      fab: r.plain.fabricated.count,
      markers: pct(r.markers.markerTokens / Math.max(1, r.plain.tokensOut)),
      costly: r.markers.costly,
      ok: r.plain.deterministic && r.plain.idempotent && r.plain.retrieveExact ? "yes" : "NO",
    };
  }),
);
const broadAfter = broadSummary(after);
const broadBefore = prior ? broadSummary(prior) : null;
const at1mbAll = throughput.filter((t) => t.size === "1 MB");
const minMbps = at1mbAll.length > 0 ? Math.min(...at1mbAll.map((t) => t.mbPerSec)) : null;
const minCpuMbps = at1mbAll.length > 0 ? Math.min(...at1mbAll.map((t) => t.cpuMbPerSec)) : null;
const before1mb = (beforeThroughput ?? []).filter((t) => t.size === "1 MB");
const beforeMin = (key) =>
  before1mb.length > 0 ? `${Math.min(...before1mb.map((t) => t[key])).toFixed(1)} MB/s` : "-";
const issue13 = [
  ["no-hint median reduction", ">= 50%", "median", (x) => x >= 0.5, pct],
  ["no-hint aggregate reduction", ">= 75%", "aggregate", (x) => x >= 0.75, pct],
  ["worst log family, no hint", ">= 80%", "worstLogFamily", (x) => x >= 0.8, pct],
  ["diff median, no hint", ">= 50%", "diffMedian", (x) => x >= 0.5, pct],
  ["grep median, no hint", ">= 70%", "grepMedian", (x) => x >= 0.7, pct],
  ["gold answers lost", "0", "lost", (x) => x === 0, String],
  ["fabricated lines", "0", "fabricated", (x) => x === 0, String],
  ["not idempotent / not deterministic / retrieve not exact", "0", null, null, null],
  ["marker tokens / output tokens", "<= 5%", "markerShare", (x) => x <= 0.05, pct],
  ["the same, compressed items only", "<= 5%", "markerShareCompressed", (x) => x <= 0.05, pct],
  [
    "the same, handle in a marker (library callers; server and hook pass none)",
    "<= 5%",
    "markerShareWithHandle",
    (x) => x <= 0.05,
    pct,
  ],
  ["markers costing >= what they elide", "0", "costlyMarkers", (x) => x === 0, String],
  ["tokens wasted by those markers", "0", "wastedTokens", (x) => x === 0, String],
].map(([metric, target, key, ok, fmt]) => {
  const show = (s) => {
    if (!s) return "-";
    if (key === null) return `${s.notIdempotent}/${s.notDeterministic}/${s.retrieveNotExact}`;
    return fmt(s[key]);
  };
  const met =
    key === null
      ? broadAfter.plain.notIdempotent +
          broadAfter.plain.notDeterministic +
          broadAfter.plain.retrieveNotExact ===
        0
      : ok(broadAfter.plain[key]);
  return {
    metric,
    target,
    before: show(broadBefore?.plain),
    after: show(broadAfter.plain),
    "after+hint": show(broadAfter.hinted),
    met: met ? "yes" : "NO",
  };
});
if (minMbps !== null) {
  for (const [clock, key, after] of [
    ["wall clock", "mbPerSec", minMbps],
    ["CPU time", "cpuMbPerSec", minCpuMbps],
  ])
    issue13.push({
      metric: `slowest throughput at 1 MB, ${clock}`,
      target: ">= 20 MB/s",
      before: beforeMin(key),
      after: `${after.toFixed(1)} MB/s`,
      "after+hint": "-",
      met: after >= 20 ? "yes" : "NO",
    });
}
printTable(`engine: issue 13 targets on the broad corpus (${broad.length} items)`, issue13);

let hostile = null;
if (!flag("--no-hostile")) {
  const here = runHostile(new URL("../dist/index.js", import.meta.url).href);
  const then = beforeUrl ? runHostile(beforeUrl) : null;
  const sec = (h) => (h.ms === null ? h.result : `${(h.ms / 1000).toFixed(2)} s`);
  const mb = (h) => (h.peakRssMb === null ? "-" : `${h.peakRssMb.toFixed(0)} MB`);
  hostile = here.map((h, i) => ({
    input: h.name,
    ...(then ? { beforeTime: sec(then[i]), beforePeakRss: mb(then[i]) } : {}),
    afterTime: sec(h),
    afterPeakRss: mb(h),
    result: h.result,
  }));
  printTable("engine: hostile inputs (fresh process each; peak RSS includes the ~50 MB runtime)", hostile);
}

writeResults("engine", {
  broad: {
    items: broad.length,
    after: broadAfter,
    before: broadBefore,
    families: after.map((r) => ({
      id: r.id,
      family: r.family,
      plain: r.plain.reduction,
      hinted: r.hinted.reduction,
      detected: r.plain.detected,
      lost: r.plain.lost,
      markers: r.markers,
    })),
  },
  issue13,
  hostile,
  corpus: { items: corpus.length, bytes: corpus.reduce((n, i) => n + i.bytes, 0) },
  perKind: rows,
  items: grades,
  throughput,
  beforeThroughput,
  load,
  targets,
  crossProcessDeterministic,
  crossProcessDifferences: crossProcess,
});
