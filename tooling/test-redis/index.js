// Test and benchmark helper: a real redis-server (Debian's package) on a free loopback port, with
// its own temp --dir, no RDB snapshots and no AOF, killed by stop(). Tests that need the server
// killed and restarted mid-stream use kill() and restart() on the same port.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const INSTALL_HINT = "install it with `apt-get install -y redis-server` (CI does this in .ci/run)";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function run(cmd, args, input) {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${cmd} ${args.join(" ")} failed: ${err.message} ${stderr.toString()}`));
        else resolve(stdout.toString("utf8").trim());
      },
    );
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

export async function startRedis(options = {}) {
  const dir = mkdtempSync(join(tmpdir(), "caveman-redis-"));
  const port = await freePort();
  let child;
  let exited;

  const launch = async () => {
    child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--loglevel",
        "warning",
        "--enable-debug-command",
        "local",
        ...(options.args ?? []),
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d.toString();
    });
    exited = new Promise((resolve) => child.on("exit", resolve));
    const spawnError = new Promise((_, reject) =>
      child.on("error", (err) =>
        reject(
          new Error(err.code === "ENOENT" ? `redis-server is not installed; ${INSTALL_HINT}` : err.message),
        ),
      ),
    );
    const auth = options.args?.includes("--requirepass")
      ? ["-a", options.args[options.args.indexOf("--requirepass") + 1], "--no-auth-warning"]
      : [];
    const deadline = Date.now() + 10_000;
    for (;;) {
      const pong = await Promise.race([
        run("redis-cli", ["-p", String(port), ...auth, "ping"]).catch(() => ""),
        spawnError,
      ]);
      if (pong === "PONG") return;
      if (child.exitCode !== null) throw new Error(`redis-server exited at start: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  await launch();
  let stopped = false;
  const kill = async (signal = "SIGKILL") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    get pid() {
      return child.exitCode === null && child.signalCode === null ? child.pid : undefined;
    },
    cli: (args, input) => run("redis-cli", ["-p", String(port), ...args], input),
    kill,
    restart: launch,
    async stop() {
      if (stopped) return;
      stopped = true;
      await kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
