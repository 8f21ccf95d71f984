// Process tests: the built launcher, pointed at a fixture server through the override,
// behaves like the server itself to whoever started it.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, fixtureEnv, startLauncher, waitForStderr } from "./helpers.js";

beforeAll(assertBuilt);

describe("the launcher with a fixture server", () => {
  it("passes every argument through unchanged", async () => {
    const args = ["--print-args", "a b", "", "ünïcödé ✓", "--flag=x", "--", "-", "$HOME", "*"];
    const { done } = startLauncher(args, fixtureEnv());
    const r = await done;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.toString("utf8"))).toEqual(args);
  });

  for (const code of [0, 3, 255]) {
    it(`mirrors the server's exit code ${code}`, async () => {
      const r = await startLauncher(["--exit", String(code)], fixtureEnv()).done;
      expect(r.code).toBe(code);
      expect(r.signal).toBeNull();
    });
  }

  it("passes JSON-RPC lines through byte-exact and never reads stdin itself", async () => {
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}\n',
      '{"jsonrpc":"2.0","id":"é✓\\u0000","method":"tools/call","params":{"input":"a\\r\\nb"}}\r\n',
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "x", params: { big: "z".repeat(300_000) } })}\n`,
    ];
    const payload = Buffer.from(lines.join(""), "utf8");
    const { child, done } = startLauncher(["--echo"], fixtureEnv());
    child.stdin?.end(payload);
    const r = await done;
    expect(r.code).toBe(0);
    expect(r.stdout.equals(payload)).toBe(true);
  });

  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    it(`forwards ${signal} to the server and exits as the server does (0)`, async () => {
      const { child, done, stderrSoFar } = startLauncher(["--wait-signal"], fixtureEnv());
      await waitForStderr(stderrSoFar, "ready");
      child.kill(signal);
      const r = await done;
      expect(r.stderr).toContain(`got ${signal}`);
      expect(r.code).toBe(0);
      expect(r.signal).toBeNull();
    });
  }

  it("dies by SIGTERM when the server is killed by SIGTERM (never reports 0)", async () => {
    const r = await startLauncher(["--die-by", "SIGTERM"], fixtureEnv()).done;
    expect(r.signal).toBe("SIGTERM");
    expect(r.code).toBeNull();
  });

  it("dies by SIGINT when the server is killed by SIGINT", async () => {
    const r = await startLauncher(["--die-by", "SIGINT"], fixtureEnv()).done;
    expect(r.signal).toBe("SIGINT");
  });
});

describe("signals Node keeps for itself", () => {
  // Node answers SIGUSR1 by opening its inspector on 127.0.0.1:9229 and ignores SIGPIPE, so
  // the launcher must not send those to itself; it reports 128+n instead.
  for (const [signal, code] of [
    ["USR1", 138],
    ["PIPE", 141],
  ] as const) {
    it(`exits ${code} without opening a debugger when the server dies by SIG${signal}`, async () => {
      const dir = tempDir("cm-launch-");
      const server = join(dir, "server-bin");
      writeFileSync(server, `#!/bin/sh\nkill -${signal} $$\n`);
      chmodSync(server, 0o755);
      const r = await startLauncher([], fixtureEnv({ CAVEMAN_MCP_BINARY: server })).done;
      expect(r.code).toBe(code);
      expect(r.stderr).not.toContain("Debugger listening");
      expect(r.stderr).toBe("");
    });
  }
});

describe("the launcher's own failures", () => {
  it("escapes control characters of a hostile override in its diagnostics", async () => {
    const dir = tempDir("cm-launch-");
    const hostile = join(dir, "x\u001b[2J\u001b]0;owned\u0007\nfake: line");
    const r = await startLauncher([], fixtureEnv({ CAVEMAN_MCP_BINARY: hostile })).done;
    expect(r.code).toBe(1);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toContain("launcher_override_missing");
    const controls = [...r.stderr].filter(
      (c) => c !== "\n" && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
    );
    expect(controls).toEqual([]);
    expect(r.stderr).not.toContain("\nfake: line");
    expect(r.stderr).toContain("\\u001b[2J");
  });

  it("exits 1 with diagnostics and an empty stdout when the override does not exist", async () => {
    const missing = join(tempDir("cm-launch-"), "no-such-server.mjs");
    const r = await startLauncher(["--version"], fixtureEnv({ CAVEMAN_MCP_BINARY: missing })).done;
    expect(r.code).toBe(1);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toContain("launcher_override_missing");
    expect(r.stderr).toContain(`CAVEMAN_MCP_BINARY is set to "${missing}"`);
    expect(r.stderr).toMatch(/detected: platform \w+, arch \w+/);
    expect(r.stderr).toContain(`Node ${process.version}`);
    expect(r.stderr).toContain("to fix:");
  });

  it("exits 126 when the override exists but cannot be executed", async () => {
    const dir = tempDir("cm-launch-");
    const server = join(dir, "server-bin");
    writeFileSync(server, "not a program\n");
    chmodSync(server, 0o644);
    const r = await startLauncher([], fixtureEnv({ CAVEMAN_MCP_BINARY: server })).done;
    expect(r.code).toBe(126);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toContain("launcher_spawn_failed");
    expect(r.stderr).toContain("(from CAVEMAN_MCP_BINARY; point it at a runnable server)");
  });

  it("exits 126 naming the variable when the override is a directory", async () => {
    const dir = tempDir("cm-launch-");
    const r = await startLauncher([], fixtureEnv({ CAVEMAN_MCP_BINARY: dir })).done;
    expect(r.code).toBe(126);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr).toContain(`cannot run ${dir} (from CAVEMAN_MCP_BINARY`);
  });

  it("exits 127 when the override's interpreter cannot be found", async () => {
    const dir = tempDir("cm-launch-");
    const server = join(dir, "server-bin");
    writeFileSync(server, "#!/nonexistent/interpreter\n");
    chmodSync(server, 0o755);
    const r = await startLauncher([], fixtureEnv({ CAVEMAN_MCP_BINARY: server })).done;
    expect(r.code).toBe(127);
    expect(r.stderr).toContain("launcher_spawn_failed");
  });
});
