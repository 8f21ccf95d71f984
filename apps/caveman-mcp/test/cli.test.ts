// The binary's subcommands and configuration handling, run as real processes.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
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
    [["--max-inbound-bytes", "12"], /at least 1024/],
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
