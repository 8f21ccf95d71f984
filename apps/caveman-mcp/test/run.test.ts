// `caveman-mcp run -- COMMAND`: the real binary around real commands. The command's exit status,
// signals, stdin, cwd, env and the order of its two streams are kept; a large output is printed as
// its stand-in, within the host preview's budget, with the exact capture behind the handle.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseKeptHeader } from "@caveman/keep";
import { describe, expect, it } from "vitest";
import { CLI, type Sandbox, sandbox } from "./helpers.js";

function roomy(): Sandbox {
  const box = sandbox();
  mkdirSync(join(box.env.HOME!, ".caveman"), { recursive: true });
  // The time budget is the hooks' own; on a loaded machine the default can run out while the
  // bundle loads, and the capture then (correctly) prints as it is.
  writeFileSync(join(box.env.HOME!, ".caveman", "hooks.json"), JSON.stringify({ budget_ms: 60_000 }));
  return box;
}

function run(
  box: Sandbox,
  script: string,
  opts: { input?: string; env?: Record<string, string>; args?: string[] } = {},
) {
  const r = spawnSync(process.execPath, [CLI, "run", ...(opts.args ?? []), "--", "bash", "-c", script], {
    env: { ...box.env, ...opts.env },
    cwd: box.root,
    input: opts.input ?? "",
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** A failing pytest run of about 90,000 characters, framed by blank lines the host would trim. */
const PYTEST = `
printf '\\n\\n============================= test session starts ==============================\\ncollected 1200 items\\n\\n'
for i in $(seq 1 1200); do echo "tests/test_gen.py::test_case_$i PASSED [ $((i/12))%]"; done
echo "tests/test_pay.py::test_refund_total FAILED" >&2
printf '=================================== FAILURES ===================================\\n'
printf '    def test_refund_total():\\n>       assert order.total == 70\\nE       assert 100 == 70\\n\\ntests/test_pay.py:42: AssertionError\\n'
printf '=========================== short test summary info ============================\\n'
printf 'FAILED tests/test_pay.py::test_refund_total - assert 100 == 70\\n'
printf '======================== 1 failed, 1199 passed in 9.21s ========================\\n\\n\\n'
exit 1`;

describe("caveman-mcp run", () => {
  it.each([0, 1, 2, 101, 130])("exits %i as the command did, its small output unchanged", (status) => {
    const r = run(sandbox(), `echo out; echo err >&2; exit ${status}`);
    expect(r.code).toBe(status);
    expect(r.stdout).toBe("out\nerr\n");
  });

  it("keeps the order of stdout and stderr in one capture, and the command's stdin, cwd and env", () => {
    const box = sandbox();
    const r = run(box, 'for i in 1 2 3; do echo "o$i"; echo "e$i" >&2; done; cat; pwd; echo "$FOO"', {
      input: "from stdin\n",
      env: { FOO: "bar baz" },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`o1\ne1\no2\ne2\no3\ne3\nfrom stdin\n${box.root}\nbar baz\n`);
  });

  it("dies of the signal that killed the command", () => {
    const r = run(sandbox(), "echo before; kill -TERM $$");
    expect(r.signal).toBe("SIGTERM");
    expect(r.stdout).toBe("before\n");
  });

  it("passes SIGINT on to the command, prints what it had, and dies of it", async () => {
    const box = sandbox();
    const child = spawn(process.execPath, [CLI, "run", "--", "bash", "-c", "echo ready; exec sleep 60"], {
      env: box.env,
      cwd: box.root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    // The command's first line is held until the end: wait until the sleep runs, then interrupt.
    const started = Date.now();
    while (Date.now() - started < 60_000) {
      const ps = spawnSync("pgrep", ["-P", String(child.pid)], { encoding: "utf8" });
      const kid = ps.stdout.trim();
      if (kid && spawnSync("ps", ["-o", "comm=", "-p", kid], { encoding: "utf8" }).stdout.trim() === "sleep")
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill("SIGINT");
    const { code, signal } = await new Promise<{ code: number | null; signal: string | null }>((r) =>
      child.on("close", (c, s) => r({ code: c, signal: s })),
    );
    expect(signal === "SIGINT" || code === 130).toBe(true);
    expect(out).toBe("ready\n");
  }, 90_000);

  it("prints a large failing run as its stand-in within the preview's budget, exit status kept, the exact output behind the handle", () => {
    const box = roomy();
    const raw = spawnSync("bash", ["-c", PYTEST], { encoding: "utf8", maxBuffer: 64 << 20 });
    const r = run(box, PYTEST);
    expect(r.code).toBe(1);
    expect(r.stdout.length).toBeLessThan(raw.stdout.length / 10);
    const facts = parseKeptHeader(r.stdout.split("\n")[0]!);
    expect(facts).not.toBeNull();
    // The header states the stand-in's own cost, header included (keep counts it with o200k).
    expect(facts!.tokensOut).toBeLessThanOrEqual(700);
    expect(r.stdout).toContain("assert 100 == 70");
    expect(r.stdout).toContain("1 failed, 1199 passed");
    const back = spawnSync(process.execPath, [CLI, "retrieve", facts!.handle], {
      env: box.env,
      cwd: box.root,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    // Byte-exact with what the command printed: both streams, the blank lines at either end too.
    const expected = spawnSync("bash", ["-c", `(${PYTEST}) 2>&1`], { encoding: "utf8", maxBuffer: 64 << 20 });
    expect(back.stdout).toBe(expected.stdout);
    expect(back.stdout.startsWith("\n\n=====")).toBe(true);
  });

  it("streams the output through unchanged once the command outruns --stream-after-ms", () => {
    const r = run(roomy(), `echo first; sleep 1.5; ${PYTEST}`, { args: ["--stream-after-ms", "300"] });
    expect(r.code).toBe(1);
    expect(r.stdout.startsWith("first\n\n\n=====")).toBe(true);
    expect(r.stdout).toContain("test_case_600 PASSED");
  });

  it("runs the command unchanged when the configuration is invalid", () => {
    const r = run(sandbox(), "echo still runs; exit 3", { env: { CAVEMAN_CHIP_MAX: "many" } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("still runs\n");
  });
});
