// The warm path: a hook hands its job to a running server of its build (the server keeps the
// engine loaded), and does the work itself whenever that server is gone, wedged, not ours or in
// a directory others may enter. A client whose own hook worker is missing proves which path ran:
// it can only compress through the server.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { describe, expect, it, onTestFinished } from "vitest";
import { CLI, type Sandbox, sandbox } from "./helpers.js";
import { claudeBash, logText } from "./hookSamples.js";

const LOG = logText();
const EVENT = claudeBash("cat app.log", LOG);

function runDir(box: Sandbox): string {
  return join(box.env.HOME!, ".caveman", "run");
}

function box(): Sandbox {
  const b = sandbox();
  mkdirSync(join(b.env.HOME!, ".caveman"), { recursive: true });
  // Generous: the figures here are about which path ran, not how fast (a loaded machine is slow).
  writeFileSync(
    join(b.env.HOME!, ".caveman", "hooks.json"),
    JSON.stringify({ budget_ms: 60_000, stdin_timeout_ms: 30_000 }),
  );
  return b;
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

/** A server of this build in `b`, once its hook socket answers. */
async function server(b: Sandbox): Promise<{ child: ChildProcess; socket: string }> {
  const child = spawn(process.execPath, [CLI, "--tools", "retrieve"], {
    env: b.env,
    cwd: b.root,
    stdio: ["pipe", "ignore", "ignore"],
  });
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  for (;;) {
    const dir = runDir(b);
    const name = existsSync(dir) ? readdirSync(dir).find((f) => /^hook-.*\.sock$/.test(f)) : undefined;
    if (name && (await answers(join(dir, name)))) return { child, socket: join(dir, name) };
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** This build's dist without its hook worker: a hook that must not do the work itself. */
function workerless(b: Sandbox): string {
  const dist = join(b.base, "workerless");
  cpSync(dirname(CLI), dist, { recursive: true });
  rmSync(join(dist, "hook-worker.js"));
  return join(dist, "cli.js");
}

function hook(b: Sandbox, cli = CLI) {
  const r = spawnSync(process.execPath, [cli, "hook", "claude-code"], {
    env: b.env,
    cwd: b.root,
    input: EVENT,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function compressedWithHandle(b: Sandbox, r: ReturnType<typeof hook>): void {
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("compressed");
  const out = JSON.parse(r.stdout) as { hookSpecificOutput: { updatedToolOutput: { stdout: string } } };
  const stdout = out.hookSpecificOutput.updatedToolOutput.stdout;
  expect(stdout).toContain("card_declined");
  const handle = /ccr_[0-9a-f]{32}/.exec(stdout)?.[0];
  const back = spawnSync(process.execPath, [CLI, "retrieve", handle ?? "none"], {
    env: b.env,
    encoding: "utf8",
  });
  expect(back.stdout).toBe(LOG);
}

function listener(path: string, onConnection: (sock: Socket) => void): Promise<Server> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const s = createServer(onConnection);
  onTestFinished(() => {
    s.close();
  });
  return new Promise((resolve) => s.listen(path, () => resolve(s)));
}

describe("hooks handed to a running server", () => {
  it("a hook whose own worker is missing compresses through the server, into the same store", async () => {
    const b = box();
    const { socket } = await server(b);
    expect(socket.endsWith(".sock")).toBe(true);
    const cli = workerless(b);
    compressedWithHandle(b, hook(b, cli));
    // Twice: the server's worker stays up between jobs.
    compressedWithHandle(b, hook(b, cli));
  });

  it("with no server, the workerless hook fails open, so the test above proves the path", () => {
    const b = box();
    const r = hook(b, workerless(b));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("passed (internal_error");
  });

  it("a socket left by a server that died is passed over, and the next server takes it over", async () => {
    const b = box();
    const first = await server(b);
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    expect(existsSync(first.socket)).toBe(true);
    compressedWithHandle(b, hook(b));
    await server(b);
    compressedWithHandle(b, hook(b, workerless(b)));
  });

  it("a listener that never acknowledges the job, or answers garbage, costs the hook nothing but the wait", async () => {
    const b = box();
    const real = await server(b);
    real.child.kill("SIGKILL");
    await new Promise((r) => real.child.once("exit", r));
    rmSync(real.socket);
    await listener(real.socket, () => {
      // Holds the connection and says nothing.
    });
    compressedWithHandle(b, hook(b));
    rmSync(real.socket);
    await listener(real.socket, (sock) => sock.end(Buffer.from("\u0000\u0000\u0000\u0005hello")));
    compressedWithHandle(b, hook(b));
  });

  it("a server socket in a directory others may enter is not used", async () => {
    const b = box();
    await server(b);
    const cli = workerless(b);
    chmodSync(runDir(b), 0o755);
    const open = hook(b, cli);
    expect(open.stdout).toBe("");
    expect(open.stderr).toContain("passed (internal_error");
    chmodSync(runDir(b), 0o700);
    compressedWithHandle(b, hook(b, cli));
  });
});

describe("a wedged server", () => {
  it("that never reads a large job costs the hook only the acknowledgement wait, not its budget", async () => {
    const b = box();
    const real = await server(b);
    real.child.kill("SIGKILL");
    await new Promise((r) => real.child.once("exit", r));
    rmSync(real.socket);
    // Accepts and never reads: a job larger than the socket's buffers never finishes being written.
    await listener(real.socket, (sock) => sock.pause());
    const big = logText(80_000, 40_000);
    const r = spawnSync(process.execPath, [CLI, "hook", "claude-code"], {
      env: b.env,
      cwd: b.root,
      input: claudeBash("cat app.log", big),
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("compressed");
  });
});

/** One length-prefixed v8 message as the hook socket carries it. */
function wire(value: unknown): Buffer {
  const body = serialize(value);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
}

/** The first message a connection to `path` receives (the job a hook sends its server). */
function firstMessage(sock: Socket): Promise<unknown> {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    sock.on("data", (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      if (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
        resolve(deserialize(buf.subarray(4, 4 + buf.readUInt32BE(0))));
        sock.destroy();
      }
    });
  });
}

interface CapturedJob {
  deadline: number;
  config: { hooks: { cavemanHome: string } };
}

/** A real hook's job, as it reaches a server listening on `path` (the hook then does it itself). */
async function capturedJob(b: Sandbox, path: string): Promise<CapturedJob> {
  let got: Promise<unknown> | undefined;
  const s = await listener(path, (sock) => {
    got ??= firstMessage(sock);
  });
  const child = spawn(process.execPath, [CLI, "hook", "claude-code"], {
    env: b.env,
    cwd: b.root,
    stdio: "pipe",
  });
  child.stdin.end(EVENT);
  await new Promise((r) => child.once("exit", r));
  s.close();
  rmSync(path, { force: true });
  if (!got) throw new Error("the hook never connected");
  return (await got) as CapturedJob;
}

/** Sends `job` to the server on `path` and resolves once it has acknowledged it. */
function sendJob(path: string, job: unknown): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = connect(path);
    onTestFinished(() => {
      sock.destroy();
    });
    sock.once("data", () => resolve(sock));
    sock.once("close", () => reject(new Error("closed without an acknowledgement")));
    sock.write(wire(job));
  });
}

describe("a served job that outlives its deadline", () => {
  it("does not hold its worker, so the hooks after it are not queued behind it", async () => {
    const b = box();
    const first = await server(b);
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    rmSync(first.socket);
    const job = await capturedJob(b, first.socket);
    await server(b);
    // A journal that is a FIFO no one reads: the job's worker blocks for good in open(2) once it
    // has compressed, the way any job can wedge its worker. One per worker the pool may start.
    const wedged = join(b.base, "wedged");
    mkdirSync(wedged, { recursive: true });
    const fifo = join(wedged, "savings.jsonl");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    onTestFinished(() => {
      // Lets the blocked threads go.
      openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    });
    const hostile = {
      ...job,
      deadline: Date.now() + 10_000,
      config: { ...job.config, hooks: { ...job.config.hooks, cavemanHome: wedged } },
    };
    await sendJob(first.socket, hostile);
    await sendJob(first.socket, hostile);
    compressedWithHandle(b, hook(b));
  });
});

describe("a flood of idle connections", () => {
  it("costs hooks nothing (refused, they do their own work), and the service serves again once it goes", async () => {
    const b = box();
    const { socket } = await server(b);
    const idle: Socket[] = [];
    for (let i = 0; i < 40; i++) {
      const s = connect(socket);
      s.on("error", () => undefined);
      idle.push(s);
      await new Promise((r) => s.once("connect", r));
    }
    onTestFinished(() => {
      for (const s of idle) s.destroy();
    });
    // The workerless hook can only compress through the server: refused, it fails open.
    const cli = workerless(b);
    const crowded = hook(b, cli);
    expect(crowded.stdout).toBe("");
    expect(crowded.stderr).toContain("passed (internal_error");
    compressedWithHandle(b, hook(b));
    for (const s of idle) s.destroy();
    // The server sees the hang-ups in its own time; the first hook after may still be refused.
    for (;;) {
      const r = hook(b, cli);
      if (r.stderr.includes("compressed")) {
        compressedWithHandle(b, r);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  });
});

describe("doctor and the hook service", () => {
  const doctor = (b: Sandbox) => {
    const r = spawnSync(process.execPath, [CLI, "doctor", "--json"], {
      env: b.env,
      cwd: b.root,
      encoding: "utf8",
    });
    const out = JSON.parse(r.stdout) as { checks: Array<{ ok: boolean; what: string; detail: string }> };
    return { code: r.status, check: out.checks.find((c) => c.what === "hook service") };
  };

  it("names a running server's socket, says when none runs, and fails on a socket hooks would not trust", async () => {
    const b = box();
    expect(doctor(b).check).toMatchObject({
      ok: true,
      detail: expect.stringContaining("no server of this build"),
    });
    const { socket } = await server(b);
    expect(doctor(b).check).toMatchObject({
      ok: true,
      detail: `a server of this build takes hook jobs at ${socket}`,
    });
    chmodSync(runDir(b), 0o755);
    const open = doctor(b);
    expect(open.check).toMatchObject({
      ok: false,
      detail: expect.stringContaining(`chmod 700 ${runDir(b)}`),
    });
    expect(open.code).not.toBe(0);
  });
});
