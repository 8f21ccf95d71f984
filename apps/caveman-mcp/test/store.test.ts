// Where originals live, said out loud: the real SQLite store on whatever driver this Node has,
// a memory fallback that doctor fails on and that the start line and caveman_stats name with
// its cause, a read-only store that still serves originals, and a store deleted under a running
// server that keeps every handle it hands out resolvable from another process.
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { nodeHasSqlite } from "@caveman/ccr-store/sqlite";
import { describe, expect, it } from "vitest";
import { allText, CLI, connect, handleIn, type Sandbox, sandbox, text } from "./helpers.js";

const BUILTIN = nodeHasSqlite(process.version);
const DRIVER = BUILTIN ? "node:sqlite" : "better-sqlite3";

function run(box: Sandbox, args: string[], opts: { input?: string; nodeFlags?: string[] } = {}) {
  const r = spawnSync(process.execPath, [...(opts.nodeFlags ?? []), CLI, ...args], {
    env: box.env,
    cwd: box.root,
    input: opts.input,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const logLines = (n: number, tag: string) =>
  Array.from(
    { length: n },
    (_, i) => `2024-05-01T10:00:${String(i % 60).padStart(2, "0")} INFO ${tag} job ${i}`,
  ).join("\n");

/** A sandbox whose only SQLite route is a binding that does not load. */
function noSqlite(): { box: Sandbox; nodeFlags: string[] } {
  const box = sandbox();
  const fake = join(box.base, "fake.node");
  writeFileSync(fake, "not a native addon");
  box.env.CAVEMAN_SQLITE_BINDING = fake;
  // Where this Node has node:sqlite, switch it off so the broken binding is the only way left.
  return { box, nodeFlags: BUILTIN ? ["--no-experimental-sqlite"] : [] };
}

describe("the CCR store the server reports", () => {
  it(`uses SQLite through ${DRIVER} on Node ${process.versions.node}, and doctor says which`, () => {
    const box = sandbox();
    const r = run(box, ["doctor"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`ok   ccr store: sqlite (${DRIVER}) ${box.db} (mode 0600)`);
    expect(r.stderr).not.toMatch(/ExperimentalWarning/);
    const stats = JSON.parse(run(box, ["stats", "--json"]).stdout) as { store: Record<string, unknown> };
    expect(stats.store).toMatchObject({ backend: "sqlite", driver: DRIVER, writable: true });
  });

  it("fails doctor, and says originals will be lost at exit, when no SQLite driver loads", () => {
    const { box, nodeFlags } = noSqlite();
    const r = run(box, ["doctor"], { nodeFlags });
    expect(r.code).toBe(1);
    const line = r.stdout.split("\n").find((l) => l.includes("ccr store:")) ?? "";
    expect(line).toMatch(/^FAIL ccr store: /);
    expect(line).toContain("originals are kept in memory only and will be lost at exit");
    expect(line).toContain("store_driver_unavailable");
    expect(line).toContain(`the binding ${box.env.CAVEMAN_SQLITE_BINDING} failed to load`);
    expect(line).toMatch(/Fix: .*run on Node 22\.13 or newer/);
    expect(line).not.toMatch(/optional dependencies/);
    const json = JSON.parse(run(box, ["doctor", "--json"], { nodeFlags }).stdout) as { ok: boolean };
    expect(json.ok).toBe(false);
  });

  it("says so in the start line and in caveman_stats when the store fell back to memory", async () => {
    const { box, nodeFlags } = noSqlite();
    const { client, transport } = await connect(box, [], nodeFlags);
    let err = "";
    transport.stderr?.on("data", (c: Buffer) => {
      err += c.toString("utf8");
    });
    const stats = await client.callTool({ name: "caveman_stats", arguments: {} });
    await client.close();
    const store = (stats.structuredContent as { store: { backend: string; fallback: string } }).store;
    expect(store.backend).toBe("memory");
    expect(store.fallback).toMatch(
      /^originals are kept in memory only and will be lost at exit: store_driver_unavailable/,
    );
    const start = err.split("\n").find((l) => l.includes("serving MCP on stdio")) ?? "";
    expect(start).toContain("store memory: originals are kept in memory only and will be lost at exit");
  });

  it("passes doctor with --ephemeral: memory was asked for", () => {
    const box = sandbox();
    const r = run(box, ["--ephemeral", "doctor"]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain("ok   ccr store: memory (--ephemeral");
  });

  it("serves stored originals from a read-only store, passes compress through, and fails doctor", async () => {
    const box = sandbox();
    const input = logLines(300, "seeded");
    const seeded = JSON.parse(run(box, ["compress", "-", "--json"], { input }).stdout) as {
      recovery_handle: string;
    };
    expect(seeded.recovery_handle).toMatch(/^ccr_/);
    const dir = dirname(box.db);
    execFileSync("chattr", ["+i", dir]);
    try {
      const doctor = run(box, ["doctor"]);
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toMatch(
        /FAIL ccr store: sqlite \([^)]+\) \S+ \(mode 0600\), READ-ONLY: new originals are not stored/,
      );
      const { client } = await connect(box);
      const back = await client.callTool({
        name: "caveman_retrieve",
        arguments: { recovery_handle: seeded.recovery_handle },
      });
      expect(text(back)).toBe(input);
      const fresh = logLines(300, "fresh");
      const c = await client.callTool({ name: "caveman_compress", arguments: { input: fresh } });
      await client.close();
      expect(text(c)).toBe(fresh);
      expect(allText(c)).toMatch(
        /\[caveman: not compressed \(store_refused:cave_store_read_only\); \w+; \d+ tokens;/,
      );
      expect(handleIn(c)).toBeNull();
    } finally {
      execFileSync("chattr", ["-i", dir]);
    }
  });

  it("keeps handing out handles that resolve elsewhere after the database is deleted under it", async () => {
    const box = sandbox();
    const { client } = await connect(box);
    const before = logLines(300, "before");
    const after = logLines(300, "after");
    const a = await client.callTool({ name: "caveman_compress", arguments: { input: before } });
    for (const suffix of ["", "-wal", "-shm"]) rmSync(box.db + suffix, { force: true });
    const b = await client.callTool({ name: "caveman_compress", arguments: { input: after } });
    await client.close();
    const handles = [a, b].map((r) => handleIn(r));
    for (const h of handles) expect(h).toMatch(/^ccr_/);
    // A second process, on the file now at the path, resolves both byte for byte.
    expect(run(box, ["retrieve", handles[0]!]).stdout).toBe(before);
    expect(run(box, ["retrieve", handles[1]!]).stdout).toBe(after);
  });
});
