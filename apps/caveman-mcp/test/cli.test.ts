// The binary's subcommands and configuration handling, run as real processes.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { countTokens } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { CLI, connect, type Sandbox, sandbox, text } from "./helpers.js";

function run(box: Sandbox, args: string[], input?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: box.env,
    cwd: box.root,
    input,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const sample = () =>
  Array.from(
    { length: 300 },
    (_, i) => `2024-05-01T10:00:${String(i % 60).padStart(2, "0")} INFO worker ${i % 4} processed job ${i}`,
  ).join("\n");

describe("caveman-mcp CLI", () => {
  it("prints help and version and exits 0", () => {
    const box = sandbox();
    const help = run(box, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("caveman-mcp compress [FILE|-]");
    const v = run(box, ["--version"]);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each([
    [["--chip-max", "zero"], /--chip-max/],
    [["--tools", "compress,teleport"], /unknown tool family "teleport"/],
    [["--root", "/definitely/not/here"], /does not exist/],
    [["--max-inbound-bytes", "12"], /from 1024 to/],
    [["--max-inbound-bytes", "99999999999999999"], /from 1024 to/],
    [["--chip-ttl", "99999999999999"], /--chip-ttl .* over the maximum/],
    [["--frobnicate"], /unknown option --frobnicate/],
    [["retrieve"], /give a handle/],
  ])("refuses bad configuration %j with exit 2 and one clear line, starting nothing", (args, message) => {
    const r = run(sandbox(), args as string[]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message as RegExp);
  });

  it("refuses a bad environment value with exit 2", () => {
    const box = sandbox();
    box.env.CAVEMAN_CHIP_TTL = "-5";
    const r = run(box, []);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/CAVEMAN_CHIP_TTL/);
  });

  it("compresses from stdin and retrieves in a server process sharing the store", async () => {
    const box = sandbox();
    const input = sample();
    const c = run(box, ["compress", "-", "--json"], input);
    expect(c.code).toBe(0);
    const out = JSON.parse(c.stdout) as { recovery_handle: string | null; ratio: number; text: string };
    expect(out.recovery_handle).toMatch(/^ccr_/);
    const { client } = await connect(box);
    const back = await client.callTool({
      name: "caveman_retrieve",
      arguments: { recovery_handle: out.recovery_handle },
    });
    expect(text(back)).toBe(input);
    await client.close();
    const r = run(box, ["retrieve", out.recovery_handle!]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(input);
    expect(run(box, ["retrieve", "ccr_ffffffffffffffffffffffffffffffff"]).code).toBe(1);
  });

  it("compresses a file with the handle and ratio on stderr", () => {
    const box = sandbox();
    const file = join(box.base, "log.txt");
    writeFileSync(file, sample());
    const r = run(box, ["compress", file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/handle ccr_[0-9a-f]{32} ratio|passed through unchanged/);
  });

  it("lists, shows and clears chips made by a server, and reports stats", async () => {
    const box = sandbox();
    const { client } = await connect(box);
    const failed = await client.callTool({
      name: "be-write",
      arguments: { path: "/outside/x.txt", content: "z".repeat(100) },
    });
    await client.close();
    const id = /chip:\/\/([0-9a-f]{6})/.exec(text(failed))![1]!;
    const list = run(box, ["chips", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`chip://${id}`);
    const show = run(box, ["chips", "show", `chip://${id}`]);
    expect(show.stdout).toBe("z".repeat(100));
    expect(run(box, ["chips", "show", "abcdef"]).code).toBe(1);
    const stats = run(box, ["stats", "--json"]);
    expect(JSON.parse(stats.stdout)).toMatchObject({ chips: { count: 1 }, store: { backend: "sqlite" } });
    expect(run(box, ["chips", "clear"]).code).toBe(0);
    expect(run(box, ["chips", "list"]).stdout).toBe("");
  });

  it("doctor checks the store, chip dir and roots and prints the config it would use", () => {
    const box = sandbox();
    const r = run(box, ["doctor", "--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      config: { roots: string[]; store: { path: string } };
    };
    expect(report.ok).toBe(true);
    expect(report.config.roots).toEqual([box.root]);
    expect(report.config.store.path).toBe(box.db);
  });

  it("keeps tools/list within the prefix budget (o200k: 700 compression family, 2000 all)", async () => {
    const box = sandbox();
    const all = await connect(box);
    const allTokens = countTokens(JSON.stringify(await all.client.listTools()));
    await all.client.close();
    box.env.CAVEMAN_TOOLS = "compress";
    const comp = await connect(box);
    const compTokens = countTokens(JSON.stringify(await comp.client.listTools()));
    await comp.client.close();
    console.log(`tools/list over stdio: compress family ${compTokens} tokens, all tools ${allTokens} tokens`);
    expect(compTokens).toBeLessThanOrEqual(700);
    expect(allTokens).toBeLessThanOrEqual(2000);
  });
});

describe("caveman-mcp CLI against hostile settings and input", () => {
  it("falls back to memory instead of hanging when the database or chip dir is on /proc", () => {
    const box = sandbox();
    // Node 20's recursive mkdir spins forever under /proc; the binary must answer, not hang.
    const r = spawnSync(
      process.execPath,
      [CLI, "--db", "/proc/caveman-nope/ccr.db", "--chip-dir", "/proc/caveman-nope/chips", "stats", "--json"],
      { env: box.env, cwd: box.root, encoding: "utf8", timeout: 20_000 },
    );
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { store: { backend: string; fallback: string } };
    expect(out.store).toMatchObject({ backend: "memory", fallback: expect.stringMatching(/ENOENT/) });
    expect(r.stderr).toMatch(/chips are kept in memory only/);
  });

  it("serves edits with an unusable chip dir: chips in memory, undo still works", async () => {
    const box = sandbox();
    box.env.CAVEMAN_CHIP_DIR = "/proc/caveman-nope/chips";
    writeFileSync(join(box.root, "a.txt"), "one\ntwo\n");
    const { client } = await connect(box);
    const del = await client.callTool({ name: "be-delete", arguments: { path: "a.txt:1" } });
    expect(del.isError).toBeFalsy();
    expect(text(del)).toMatch(/chip:\/\/[0-9a-f]{6}/);
    const undo = await client.callTool({ name: "be-undo", arguments: { path: "a.txt" } });
    expect(undo.isError).toBeFalsy();
    expect(readFileSync(join(box.root, "a.txt"), "utf8")).toBe("one\ntwo\n");
    await client.close();
  });

  it("loads SQLite through CAVEMAN_SQLITE_BINDING, and refuses a relative or missing binding with exit 2", () => {
    const box = sandbox();
    const require = createRequire(import.meta.url);
    const pkgDir = dirname(require.resolve("better-sqlite3/package.json"));
    const binding = join(pkgDir, "build", "Release", "better_sqlite3.node");
    box.env.CAVEMAN_SQLITE_BINDING = binding;
    const ok = run(box, ["stats", "--json"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ store: { backend: "sqlite", path: box.db } });
    const doctor = JSON.parse(run(box, ["doctor", "--json"]).stdout) as {
      config: { sqlite_binding: string };
    };
    expect(doctor.config.sqlite_binding).toBe(binding);
    for (const bad of ["better_sqlite3.node", join(box.base, "missing.node")]) {
      box.env.CAVEMAN_SQLITE_BINDING = bad;
      const r = run(box, []);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^caveman-mcp: CAVEMAN_SQLITE_BINDING: /);
    }
  });

  it("refuses to compress bytes that are not UTF-8 instead of altering them", () => {
    const box = sandbox();
    const file = join(box.base, "latin1.txt");
    writeFileSync(
      file,
      Buffer.concat([Buffer.from("caf"), Buffer.from([0xe9]), Buffer.from("\n".repeat(3))]),
    );
    const r = run(box, ["compress", file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/not UTF-8/);
    expect(run(box, ["compress", join(box.base, "missing.txt")]).stderr).toMatch(/cannot read .*ENOENT/);
  });

  it("answers garbage handles and hostile chip ids with clear errors and conventional exit codes", () => {
    const box = sandbox();
    for (const h of ["garbage", "ccr_zz", "<<ccr:0123>>", "ccr_../../etc/passwd"]) {
      const r = run(box, ["retrieve", h]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^caveman-mcp: cave_unknown_handle: /);
    }
    for (const id of ["../x", "chip://../../etc/passwd", "/etc/passwd"]) {
      const r = run(box, ["chips", "show", id]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/is not a chip id/);
    }
    for (const args of [["--chip-max", "-1"], ["--chip-max", "1e3"], ["--chip-ttl", "0"], ["--db"]]) {
      expect(run(box, args).code).toBe(2);
    }
  });
});

describe("caveman-mcp serving", () => {
  it("says version, store, roots and tool count in one stderr line at start, and annotates every tool", async () => {
    const box = sandbox();
    const { client, transport } = await connect(box);
    let err = "";
    transport.stderr?.on("data", (c: Buffer) => {
      err += c.toString("utf8");
    });
    const { tools } = await client.listTools();
    await client.close();
    expect(err.split("\n").filter(Boolean)).toHaveLength(1);
    expect(err).toMatch(/^caveman-mcp: \d+\.\d+\.\d+ serving MCP on stdio; store /);
    expect(err).toContain(box.db);
    expect(err).toContain(`roots ${box.root}`);
    expect(err).toMatch(/; 13 tools\n$/);
    const readOnly = [
      "caveman_compress",
      "caveman_retrieve",
      "caveman_stats",
      "caveman_toon_encode",
      "caveman_toon_decode",
      "be-read",
    ];
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeLessThan(160);
      if (readOnly.includes(t.name)) expect(t.annotations, t.name).toEqual({ readOnlyHint: true });
      else
        expect(t.annotations, t.name).toMatchObject({
          readOnlyHint: false,
          destructiveHint: !["be-insert", "be-insert-chip"].includes(t.name),
          idempotentHint: false,
        });
    }
  });
});
