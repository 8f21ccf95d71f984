// Host tier for the Claude Code plugin, installed the user's way: `claude plugin validate` on the
// built marketplace (`pnpm build` lays it out in apps/claude-plugin/dist), then in a throwaway HOME
// `caveman-mcp install claude-code` — which copies it under ~/.caveman/app/<version>/ and runs the
// CLI's own `claude plugin marketplace add` and `claude plugin install` — then `claude mcp list`
// must show the plugin's server connected, a real run must show its hook compressing, and
// `caveman-mcp stats` must show what that saved. Nothing here passes `--settings` or `--mcp-config`:
// everything comes from what the install put in HOME.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { findClaude, hostEnv, runClaude, SERVER_CLI, skipReason, workspace } from "./claude.js";
import { startFakeModel } from "./fakeModel.js";

const REPO = resolve(SERVER_CLI, "..", "..", "..", "..");
const MARKETPLACE = join(REPO, "apps", "claude-plugin", "dist");
const PLUGIN = join(MARKETPLACE, "plugins", "caveman-mcp");
/** The plugin's own server: a self-contained build, as `npx caveman-mcp` would run it. */
const BUNDLE = join(PLUGIN, "server", "cli.mjs");
const HANDLE = /ccr_[0-9a-f]{32}/;
const RETRIEVE = "mcp__plugin_caveman-mcp_caveman__caveman_retrieve";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

const skip = skipReason();

describe.skipIf(skip !== undefined)("the Claude Code plugin in the real CLI", () => {
  it("validates, installs through the CLI's plugin commands, connects, compresses and counts", async () => {
    const claude = findClaude();
    if ("missing" in claude) throw new Error(claude.missing);
    const ws = workspace();
    const home = join(ws.base, "home");
    mkdirSync(home, { recursive: true });
    // `claude` on PATH, as a user has it; node for the hook and the server.
    const bin = join(ws.base, "bin");
    mkdirSync(bin);
    symlinkSync(claude.path, join(bin, "claude"));
    const fake = await startFakeModel([
      () => [{ type: "tool_use", name: "Bash", input: { command: "cat app.log" } }],
      // The plugin's server, as Claude Code names it: retrieve the failing line by the handle given.
      (results) => [
        {
          type: "tool_use",
          name: RETRIEVE,
          input: {
            recovery_handle: HANDLE.exec(results.get("t0_0")?.text ?? "")?.[0] ?? "none",
            query: "card_declined",
          },
        },
      ],
      () => [{ type: "text", text: "done" }],
    ]);
    try {
      const env = await hostEnv(home, fake.url, {
        PATH: [bin, dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
        // Room for a loaded machine: the default 3 s budget could turn a slow start into a pass.
        CAVEMAN_HOOK_CONFIG: join(ws.base, "hooks.json"),
      });
      writeFileSync(join(ws.base, "hooks.json"), '{"budget_ms": 60000, "stdin_timeout_ms": 30000}');
      const run = (cmd: string, args: string[]) => {
        const r = spawnSync(cmd, args, { cwd: ws.root, env, encoding: "utf8", timeout: 180_000 });
        return { code: r.status, out: `${r.stdout}${r.stderr}` };
      };

      for (const dir of [MARKETPLACE, PLUGIN]) {
        const v = run(claude.path, ["plugin", "validate", dir]);
        console.log(`[host] claude plugin validate ${dir.slice(REPO.length + 1)}: exit ${v.code}\n${v.out}`);
        expect(v.code, v.out).toBe(0);
        expect(v.out).toContain("Validation passed");
      }

      const install = run(process.execPath, [BUNDLE, "install", "claude-code"]);
      console.log(`[host] caveman-mcp install claude-code: exit ${install.code}\n${install.out}`);
      expect(install.code, install.out).toBe(0);
      expect(install.out).toContain(
        "ran claude plugin install caveman-mcp@caveman-mcp --scope user --config tools=retrieve",
      );
      const stable = join(home, ".caveman", "app");
      for (const f of files(stable)) expect(readFileSync(f).toString("latin1").includes(REPO), f).toBe(false);

      const list = run(claude.path, ["mcp", "list"]);
      console.log(`[host] claude mcp list: exit ${list.code}\n${list.out}`);
      expect(list.out).toMatch(
        /plugin:caveman-mcp:caveman: .*\.caveman\/app\/[^/]+\/plugins\/caveman-mcp\/server\/cli\.mjs --tools retrieve - ✔ Connected/,
      );

      const log = Array.from({ length: 3000 }, (_, i) =>
        i === 1700
          ? `2026-11-30T10:28:20.000Z ERROR payment id=${i} failed: card_declined (upstream 402)`
          : `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.000Z INFO request id=${i} path=/api/users/${i % 13} status=200 duration_ms=${(i * 7) % 90}`,
      ).join("\n");
      writeFileSync(join(ws.root, "app.log"), `${log}\n`);
      const session = await runClaude({
        claude: claude.path,
        apiUrl: fake.url,
        ws,
        prompt: "Read the log.",
        mcpConfig: false,
        args: ["--tools", "Bash,Read,Grep,Glob"],
        env,
      });
      expect(session.code, session.stderr.slice(-2000)).toBe(0);
      const [got, retrieved] = [...fake.results().values()];
      expect(got?.text, "the Bash result").toMatch(HANDLE);
      expect(got?.text).toContain("card_declined");
      expect(got?.text.length).toBeLessThan(log.length / 10);
      console.log(
        `[host] plugin hook: ${log.length} characters of log reached the model as ${got?.text.length}`,
      );
      expect(retrieved?.isError, retrieved?.text).toBe(false);
      expect(retrieved?.text).toContain("card_declined");

      const stats = run(process.execPath, [BUNDLE, "stats"]);
      console.log(`[host] caveman-mcp stats:\n${stats.out}`);
      expect(stats.code).toBe(0);
      expect(stats.out).toMatch(/saved per kind, session .*:\n\s+log\s+█+/);
      // One compression kept, one retrieve netted out of it.
      expect(stats.out).toMatch(/today\s+1\s+\S+k\s+\d+\s+\d+ \(1\)/);

      const un = run(process.execPath, [BUNDLE, "uninstall", "claude-code"]);
      expect(un.code, un.out).toBe(0);
      expect(run(claude.path, ["mcp", "list"]).out).not.toContain("plugin:caveman-mcp");
    } finally {
      await fake.close();
      if (!process.env.HOST_TEST_KEEP) rmSync(ws.base, { recursive: true, force: true });
    }
  }, 600_000);
});
