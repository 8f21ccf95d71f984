// Test and benchmark helper: a real redis-server (Debian's package) on a free loopback port, with
// its own temp --dir, no RDB snapshots and no AOF, killed by stop(). Tests that need the server
// killed and restarted mid-stream use kill() and restart() on the same port.
import { execFile, spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** The programs these helpers run, all provided by `bash tooling/scripts/setup.sh`. */
const TOOLS = ["redis-server", "redis-cli", "openssl"];

function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {}
  }
  return false;
}

/** The one line a run without the test servers prints, or undefined when they are all there. */
export function missingToolsLine() {
  const missing = TOOLS.filter((t) => !onPath(t));
  if (missing.length === 0) return undefined;
  return `${missing.join(", ")} not on PATH: run \`bash tooling/scripts/setup.sh\` (it installs them, or names the one command to run)`;
}

/**
 * Fails with that one line, and no stack: the fix is a command, not a place in the code. Checked
 * before any spawn, so a missing binary never shows as an ENOENT deep inside a test.
 */
function requireTools() {
  const line = missingToolsLine();
  if (line === undefined) return;
  const error = new Error(line);
  error.code = "test_tools_missing";
  error.stack = `Error: ${line}`;
  throw error;
}

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

function run(cmd, args, input, timeout = 0) {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      { encoding: "buffer", maxBuffer: 64 * 1024 * 1024, timeout },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${cmd} ${args.join(" ")} failed: ${err.message} ${stderr.toString()}`));
        else resolve(stdout.toString("utf8").trim());
      },
    );
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** A private CA and a server certificate for 127.0.0.1/localhost, made with the openssl CLI. */
async function makeCertificates(dir) {
  const at = (name) => join(dir, name);
  writeFileSync(at("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  const subj = (cn) => ["-subj", `/CN=${cn}`];
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-days",
    "2",
    ...subj("caveman-test-ca"),
    "-keyout",
    at("ca.key"),
    "-out",
    at("ca.crt"),
  ]);
  await run("openssl", [
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    ...subj("localhost"),
    "-keyout",
    at("server.key"),
    "-out",
    at("server.csr"),
  ]);
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    at("server.csr"),
    "-CA",
    at("ca.crt"),
    "-CAkey",
    at("ca.key"),
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    at("san.ext"),
    "-out",
    at("server.crt"),
  ]);
  return { caFile: at("ca.crt"), certFile: at("server.crt"), keyFile: at("server.key") };
}

export async function startRedis(options = {}) {
  requireTools();
  const dir = mkdtempSync(join(tmpdir(), "caveman-redis-"));
  const certs = options.tls ? await makeCertificates(dir) : undefined;
  let port = options.port ?? (await freePort());
  const listen = () =>
    certs
      ? [
          "--port",
          "0",
          "--tls-port",
          String(port),
          "--tls-cert-file",
          certs.certFile,
          "--tls-key-file",
          certs.keyFile,
          "--tls-ca-cert-file",
          certs.caFile,
          "--tls-auth-clients",
          "no",
        ]
      : ["--port", String(port)];
  const cliArgs = () =>
    certs ? ["--tls", "--cacert", certs.caFile, "-p", String(port)] : ["-p", String(port)];
  let child;
  let exited;

  const launch = async () => {
    child = spawn(
      "redis-server",
      [
        ...listen(),
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
        reject(err.code === "ENOENT" ? new Error(missingToolsLine() ?? err.message) : err),
      ),
    );
    const auth = options.args?.includes("--requirepass")
      ? ["-a", options.args[options.args.indexOf("--requirepass") + 1], "--no-auth-warning"]
      : [];
    const deadline = Date.now() + 10_000;
    for (;;) {
      // The answer must come from this child: between freePort() and the bind, another process
      // (a parallel test's redis-server, say) may take the port, and its PONG would pass for ours.
      const info = await Promise.race([
        run("redis-cli", [...cliArgs(), ...auth, "info", "server"], undefined, 5000).catch(() => ""),
        spawnError,
      ]);
      if (new RegExp(`^process_id:${child.pid}\\r?$`, "m").test(info)) return;
      if (child.exitCode !== null) {
        const error = new Error(`redis-server exited at start: ${stderr}`);
        error.portTaken = /Address already in use/i.test(stderr);
        throw error;
      }
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`redis-server did not answer on port ${port}: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  // A port taken in the meantime gets a fresh one (never when the caller chose the port).
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (err) {
      if (!err.portTaken || options.port !== undefined || attempt >= 5) {
        rmSync(dir, { recursive: true, force: true });
        throw err;
      }
      port = await freePort();
    }
  }
  let stopped = false;
  const kill = async (signal = "SIGKILL") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    port,
    url: `${certs ? "rediss" : "redis"}://127.0.0.1:${port}`,
    caFile: certs?.caFile,
    dir,
    get pid() {
      return child.exitCode === null && child.signalCode === null ? child.pid : undefined;
    },
    cli: (args, input) => run("redis-cli", [...cliArgs(), ...args], input),
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

/**
 * A real Redis Cluster of `primaries` (default 3) redis-server processes on loopback, each with
 * its own directory and nodes file, joined with `redis-cli --cluster create`. Nodes fail over
 * fast (`--cluster-node-timeout 2000`) and the cluster keeps serving the slots it still has when
 * one primary is down (`--cluster-require-full-coverage no`). A node killed and restarted comes
 * back on its port with its nodes file (same id, same slots) and no data.
 */
export async function startRedisCluster(options = {}) {
  requireTools();
  const count = options.primaries ?? 3;
  const nodes = [];
  try {
    for (let i = 0; i < count; i++) {
      nodes.push(
        await startRedis({
          args: [
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            "nodes.conf",
            "--cluster-node-timeout",
            "2000",
            "--cluster-require-full-coverage",
            "no",
            ...(options.args ?? []),
          ],
        }),
      );
    }
    const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
    await run("redis-cli", ["--cluster", "create", ...addresses, "--cluster-yes"], undefined, 60_000);
    const cluster = {
      nodes,
      ports: nodes.map((n) => n.port),
      url: `redis://127.0.0.1:${nodes[0].port}?cluster=yes&seeds=${addresses.slice(1).join(",")}`,
      /** Resolves once every node reports cluster_state:ok and knows all its peers. */
      async settled(timeoutMs = 60_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const states = await Promise.all(
            nodes.map((n) => (n.pid === undefined ? "" : n.cli(["cluster", "info"]).catch(() => ""))),
          );
          const up = states.filter((s) => s !== "");
          if (
            up.every(
              (s) => /cluster_state:ok/.test(s) && new RegExp(`cluster_known_nodes:${count}\\b`).test(s),
            )
          )
            return;
          if (Date.now() > deadline) throw new Error(`the cluster did not settle: ${states.join(" | ")}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      },
      /** The node (index) that serves `key`'s slot. */
      async nodeOf(key) {
        const slot = Number(await nodes.find((n) => n.pid !== undefined).cli(["cluster", "keyslot", key]));
        const table = await nodes.find((n) => n.pid !== undefined).cli(["cluster", "slots"]);
        // redis-cli prints the slot table flat: start, end, then host and port (and id) per node.
        const lines = table.split("\n");
        for (let i = 0; i + 3 < lines.length; i++) {
          const [start, end, , port] = lines.slice(i, i + 4).map((l) => l.trim());
          if (/^\d+$/.test(start) && /^\d+$/.test(end) && Number(start) <= slot && slot <= Number(end)) {
            const at = nodes.findIndex((n) => n.port === Number(port));
            if (at >= 0) return at;
          }
        }
        throw new Error(`no node serves slot ${slot}`);
      },
      async stop() {
        await Promise.all(nodes.map((n) => n.stop()));
      },
    };
    await cluster.settled();
    return cluster;
  } catch (err) {
    await Promise.all(nodes.map((n) => n.stop()));
    throw err;
  }
}
