// `caveman-mcp run` under the faults a real host brings: a signal sent to the wrapper alone, a
// store that cannot be written, an output far past the compress limit, many wrappers on one store.
// Real processes throughout; every wait has a generous deadline of its own and no assertion is
// about time.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseKeptHeader } from "@caveman/keep";
import { describe, expect, it, onTestFinished } from "vitest";
import { CLI, type Sandbox, sandbox } from "./helpers.js";

function children(pid: number): number[] {
  const r = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" });
  return r.stdout
    .split("\n")
    .filter(Boolean)
    .map((s) => Number(s));
}

function commOf(pid: number): string {
  return spawnSync("ps", ["-o", "comm=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return commOf(pid) !== "";
  } catch {
    return false;
  }
}

/** The pid of a process named `name` somewhere below `root`, once it runs (60 s at most). */
async function descendantNamed(root: number, name: string): Promise<number> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const queue = [root];
    while (queue.length > 0) {
      const pid = queue.shift()!;
      for (const kid of children(pid)) {
        if (commOf(kid) === name) return kid;
        queue.push(kid);
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${name} below ${root}`);
}

function startRun(box: Sandbox, script: string): { child: ChildProcess; out: () => string } {
  const child = spawn(process.execPath, [CLI, "run", "--", "bash", "-c", script], {
    env: box.env,
    cwd: box.root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => {
    out += c.toString();
  });
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  return { child, out: () => out };
}

function closed(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((r) => child.on("close", (code, signal) => r({ code, signal })));
}

describe("caveman-mcp run and signals sent to the wrapper alone", () => {
  // A terminal's ^C reaches the whole foreground group; a host that signals only the wrapper must
  // get the same: the shell's own foreground child interrupted too, so the shell dies of it
  // instead of waiting the child out and going on with the script.
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s reaches the command's own children: the script stops there and the status is %i",
    async (sig, status) => {
      const box = sandbox();
      const { child, out } = startRun(box, "echo ready; sleep 45; echo after");
      const sleeper = await descendantNamed(child.pid!, "sleep");
      onTestFinished(() => {
        try {
          process.kill(sleeper, "SIGKILL");
        } catch {
          // Gone, as it should be.
        }
      });
      child.kill(sig);
      const { code, signal } = await closed(child);
      expect({ code, signal, out: out() }).toEqual(
        signal === null ? { code: status, signal, out: "ready\n" } : { code, signal: sig, out: "ready\n" },
      );
      const until = Date.now() + 30_000;
      while (alive(sleeper) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(alive(sleeper)).toBe(false);
    },
    120_000,
  );

  it("leaves a child that set up a process group of its own alone", async () => {
    const box = sandbox();
    const { child } = startRun(box, "echo ready; setsid sleep 45 & wait");
    const own = await descendantNamed(child.pid!, "sleep");
    onTestFinished(() => {
      try {
        process.kill(own, "SIGKILL");
      } catch {
        // Gone.
      }
    });
    child.kill("SIGTERM");
    const { code, signal } = await closed(child);
    expect(signal === "SIGTERM" || code === 143).toBe(true);
    expect(alive(own)).toBe(true);
  }, 120_000);
});

/** About 140,000 characters of a failing test run: well worth compressing. */
const FAILING = `for i in $(seq 1 3000); do echo "tests/test_gen.py::test_case_$i PASSED [ $((i/30))%]"; done
echo "E   assert 100 == 70" >&2; echo "1 failed, 2999 passed"; exit 1`;

function envOf(box: Sandbox, extra: Record<string, string | undefined>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...box.env, ...extra })) if (v !== undefined) merged[k] = v;
  return merged;
}

function runSync(box: Sandbox, script: string, env: Record<string, string | undefined> = {}) {
  const r = spawnSync(process.execPath, [CLI, "run", "--", "bash", "-c", script], {
    env: envOf(box, env),
    cwd: box.root,
    input: "",
    encoding: "utf8",
    maxBuffer: 256 << 20,
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The command's own output, both streams in one, as the host would show it unwrapped, in the same
 * environment (bash with a socket for stdin reads ~/.bashrc, and says so when it cannot).
 */
function direct(box: Sandbox, script: string, env: Record<string, string | undefined> = {}): string {
  return spawnSync("/bin/sh", ["-c", 'exec "$@" 2>&1', "sh", "bash", "-c", script], {
    env: envOf(box, env),
    cwd: box.root,
    input: "",
    encoding: "utf8",
    maxBuffer: 256 << 20,
  }).stdout;
}

/** The sandbox's own hook settings (HOME/.caveman/hooks.json) with a budget a loaded machine cannot outrun. */
function roomy(box: Sandbox): void {
  mkdirSync(join(box.env.HOME!, ".caveman"), { recursive: true });
  writeFileSync(join(box.env.HOME!, ".caveman", "hooks.json"), JSON.stringify({ budget_ms: 60_000 }));
}

/** A hook settings file outside HOME with a budget a loaded machine cannot outrun. */
function roomySettings(box: Sandbox): string {
  const file = join(box.base, "hooks.json");
  writeFileSync(file, JSON.stringify({ budget_ms: 60_000 }));
  return file;
}

describe("caveman-mcp run with a store it cannot write", () => {
  // Even root cannot create anything below a regular file (ENOTDIR), so this holds in CI too.
  it.each([
    [
      "the store file's directory is a regular file",
      (box: Sandbox, blocker: string) => ({
        CAVEMAN_CCR_DB: join(blocker, "ccr.db"),
        CAVEMAN_HOOK_CONFIG: roomySettings(box),
      }),
    ],
    [
      "HOME is below a regular file (the default store path with it)",
      (box: Sandbox, blocker: string) => ({
        HOME: join(blocker, "home"),
        CAVEMAN_CCR_DB: undefined,
        CAVEMAN_HOOK_CONFIG: roomySettings(box),
      }),
    ],
  ])("%s: the whole output and the exit status reach the caller, with a note on stderr", (_, faulty) => {
    const box = sandbox();
    const blocker = join(box.base, "not-a-dir");
    writeFileSync(blocker, "a file\n");
    const env = faulty(box, blocker);
    const r = runSync(box, FAILING, env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(direct(box, FAILING, env));
    expect(r.stderr).toMatch(
      /^caveman-mcp run: output shown uncompressed: the store could not keep its original \(store_\w+\)/,
    );
  });

  it("says nothing on stderr when a small output passes by rule", () => {
    const box = sandbox();
    const blocker = join(box.base, "not-a-dir");
    writeFileSync(blocker, "a file\n");
    const r = runSync(box, "echo small; exit 4", { CAVEMAN_CCR_DB: join(blocker, "ccr.db") });
    expect(r).toMatchObject({ code: 4, stdout: "small\n", stderr: "" });
  });
});

function rssKb(pid: number): number {
  return Number(spawnSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim()) || 0;
}

describe("caveman-mcp run with a caller that reads slowly or not at all", () => {
  it("keeps the command's exit status when the caller has closed its end of the pipe", async () => {
    const box = sandbox();
    const child = spawn(process.execPath, [CLI, "run", "--", "bash", "-c", "seq 1 20000; exit 3"], {
      env: box.env,
      cwd: box.root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    onTestFinished(() => {
      child.kill("SIGKILL");
    });
    child.stdout.destroy();
    let err = "";
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const { code, signal } = await closed(child);
    expect({ code, signal }).toEqual({ code: 3, signal: null });
    expect(err).not.toMatch(/EPIPE|Unhandled|node:/);
  }, 120_000);

  // 400 MB through a caller that stops reading: the command is held back at the pipe instead of
  // the wrapper holding what the caller has not taken. While the caller waits, the wrapper's size
  // is read off `ps`; the caller resumes once the command has written all or has stopped moving.
  it("holds a fast command back while the caller is not reading, then delivers every byte", async () => {
    const box = sandbox();
    const progress = join(box.base, "progress");
    const script = `for i in $(seq 1 400); do head -c 1048576 /dev/zero; echo $i > '${progress}'; done; exit 5`;
    const child = spawn(
      process.execPath,
      [CLI, "run", "--stream-after-ms", "1000", "--", "bash", "-c", script],
      {
        env: box.env,
        cwd: box.root,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    onTestFinished(() => {
      child.kill("SIGKILL");
    });
    child.stdout.pause();
    const readProgress = () => {
      const r = spawnSync("cat", [progress], { encoding: "utf8" });
      return Number(r.stdout.trim()) || 0;
    };
    let peakKb = 0;
    let last = -1;
    let still = 0;
    const until = Date.now() + 120_000;
    // Polls until the command is done or has not moved for 40 polls (it is waiting on the pipe).
    while (Date.now() < until && still < 40) {
      await new Promise((r) => setTimeout(r, 100));
      peakKb = Math.max(peakKb, rssKb(child.pid!));
      const now = readProgress();
      if (now >= 400) break;
      still = now === last ? still + 1 : 0;
      last = now;
    }
    let bytes = 0;
    child.stdout.on("data", (c: Buffer) => {
      bytes += c.length;
    });
    child.stdout.resume();
    const { code, signal } = await closed(child);
    expect({ code, signal }).toEqual({ code: 5, signal: null });
    expect(bytes).toBe(400 * 1048576);
    // Node itself and the bundle take about 60-90 MB; the unread output would add its 400 MB.
    expect(peakKb).toBeLessThan(250 * 1024);
  }, 240_000);
});

function runAsync(
  box: Sandbox,
  script: string,
): Promise<{ code: number | null; signal: string | null; stdout: Buffer; stderr: string }> {
  const child = spawn(process.execPath, [CLI, "run", "--", "bash", "-c", script], {
    env: box.env,
    cwd: box.root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  const out: Buffer[] = [];
  let err = "";
  child.stdout.on("data", (c: Buffer) => out.push(c));
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  return closed(child).then(({ code, signal }) => ({
    code,
    signal,
    stdout: Buffer.concat(out),
    stderr: err,
  }));
}

describe("caveman-mcp run at scale", () => {
  it("passes 100 MB through byte for byte, exit status kept", async () => {
    const box = sandbox();
    const script = "head -c 100000000 /dev/zero | tr '\\0' 'a' | fold -w 100; exit 3";
    const r = await runAsync(box, script);
    expect(r.code).toBe(3);
    const expected = spawnSync("bash", ["-c", script], { maxBuffer: 256 << 20 }).stdout;
    expect(r.stdout.length).toBe(expected.length);
    expect(r.stdout.equals(expected)).toBe(true);
  }, 240_000);

  it("keeps ten wrapped commands apart on one store: each its own status, its own stand-in and original", async () => {
    const box = sandbox();
    roomy(box);
    const scripts = Array.from({ length: 10 }, (_, i) =>
      FAILING.replace("assert 100 == 70", `assert ${i} == 70`).replace("exit 1", `exit ${i + 1}`),
    );
    const runs = await Promise.all(scripts.map((s) => runAsync(box, s)));
    const handles: string[] = [];
    runs.forEach((r, i) => {
      expect(r.code).toBe(i + 1);
      const expected = direct(box, scripts[i]!);
      const text = r.stdout.toString("utf8");
      const facts = parseKeptHeader(text.split("\n")[0]!);
      if (facts === null) {
        // A loaded machine may leave one uncompressed (its budget ran out): it is then whole.
        expect(text).toBe(expected);
        return;
      }
      expect(text).toContain(`assert ${i} == 70`);
      const back = spawnSync(process.execPath, [CLI, "retrieve", facts.handle], {
        env: box.env,
        cwd: box.root,
        encoding: "utf8",
        maxBuffer: 64 << 20,
      });
      expect(back.stdout).toBe(expected);
      handles.push(facts.handle);
    });
    expect(handles.length).toBeGreaterThan(0);
    expect(new Set(handles).size).toBe(handles.length);
  }, 240_000);
});
