// `pnpm bench:session`: the session replay bench of issue 23. Plays the session in the real
// Claude Code CLI without caveman-mcp (a) and after `caveman-mcp install claude-code` (b), prints
// one table and writes it as JSON to bench/results/<date>.json. A bench, not a test: it fails only
// when a run breaks (the CLI exits non-zero or the script errs), never on the figures.
// BENCH_ONLY=<id,id,...> (or a number: the first N calls) plays a subset while developing.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { claudeBinary, play } from "./play.js";
import { losses, table, totals } from "./score.js";
import type { Call } from "./session.js";

const HERE = dirname(fileURLToPath(import.meta.url));

function subset(): ((c: Call) => boolean) | undefined {
  const only = process.env.BENCH_ONLY?.trim();
  if (!only) return undefined;
  if (/^\d+$/.test(only)) {
    let n = 0;
    const max = Number(only);
    return () => n++ < max;
  }
  const ids = new Set(only.split(",").map((s) => s.trim()));
  return (c) => ids.has(c.id);
}

it("plays the session without and with caveman-mcp", async () => {
  const claude = claudeBinary();
  const version = spawnSync(claude.path, ["--version"], { encoding: "utf8" }).stdout.trim();
  const log = (l: string) => process.stdout.write(`${l}\n`);
  const load = { start: loadavg(), cores: cpus().length };
  const only = subset();
  const keep = process.env.BENCH_KEEP === "1";
  // Room for a loaded machine (as the plugin host test gives): the default budget would turn a
  // slow start into a pass-through and measure the load, not the product. BENCH_USER_DEFAULTS=1
  // measures the hook as installed, with no config.
  const hookConfig =
    process.env.BENCH_USER_DEFAULTS === "1" ? undefined : '{"budget_ms": 60000, "stdin_timeout_ms": 30000}';
  const hooks = hookConfig === undefined ? "hook config: user defaults" : `hook config ${hookConfig}`;
  const a = await play("a", { log, keep, ...(hookConfig ? { hookConfig } : {}), ...(only ? { only } : {}) });
  log(`[bench] a: exit ${a.exit}, ${a.ms} ms`);
  const onlyB = subset();
  const b = await play("b", {
    log,
    keep,
    ...(hookConfig ? { hookConfig } : {}),
    ...(onlyB ? { only: onlyB } : {}),
  });
  log(`[bench] b: exit ${b.exit}, ${b.ms} ms`);
  const text = table(a.calls, b.calls, b.failing, {
    schemaTokens: { a: a.schemaTokens, b: b.schemaTokens },
    fullRetrieves: b.fullRetrieves,
    fullRetrieveErrors: b.fullRetrieveErrors,
    fullRetrievePaged: b.fullRetrievePaged,
  });
  const head = `Claude Code ${version}; load ${load.start.map((x) => x.toFixed(2)).join(" ")} at start, ${loadavg()
    .map((x) => x.toFixed(2))
    .join(
      " ",
    )} at end, ${load.cores} cores; ${hooks}; runs ${a.ms} ms (a) and ${b.ms} ms (b); ToolSearch ${a.toolSearchTokens}/${b.toolSearchTokens} tokens (not in totals); hook runs ${b.hookRuns}, p50 ${b.hookRunsP50 ?? "-"} ms (follow-ups included)`;
  log(`\n${head}\n${text}\n`);
  const date = new Date().toISOString().replace(/[:.]/g, "-");
  const dir = join(HERE, "results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${date}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        claudeCode: version,
        load: { ...load, end: loadavg() },
        subset: process.env.BENCH_ONLY ?? null,
        hookConfig: hookConfig ?? null,
        totals: { a: totals(a.calls), b: totals(b.calls) },
        losses: losses(a.calls, b.calls, 40),
        a,
        b,
        table: text.split("\n"),
      },
      null,
      1,
    )}\n`,
  );
  log(`[bench] wrote ${file}`);
  expect(a.scriptErrors, "script errors (a)").toEqual([]);
  expect(b.scriptErrors, "script errors (b)").toEqual([]);
  expect(a.exit, "CLI exit (a)").toBe(0);
  expect(b.exit, "CLI exit (b)").toBe(0);
});
