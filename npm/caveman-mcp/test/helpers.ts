// Helpers for the process tests: run the built launcher (dist/cli.js) as a real child.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const LAUNCHER = resolve(here, "..", "dist", "cli.js");
const FIXTURE = resolve(here, "fixtures", "server.mjs");

export function assertBuilt(): void {
  if (!existsSync(LAUNCHER))
    throw new Error(`${LAUNCHER} is missing: run \`pnpm --filter caveman-mcp build\` first`);
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/** Start the launcher; `done` resolves when it has exited and its pipes are drained. */
export function startLauncher(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): { child: ChildProcess; done: Promise<Finished>; stderrSoFar: () => string } {
  const child = spawn(process.execPath, [LAUNCHER, ...args], { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
  const out: Buffer[] = [];
  let err = "";
  child.stdout?.on("data", (c: Buffer) => out.push(c));
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString("utf8");
  });
  const done = new Promise<Finished>((resolveDone, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) =>
      resolveDone({ code, signal, stdout: Buffer.concat(out), stderr: err }),
    );
  });
  return { child, done, stderrSoFar: () => err };
}

/** Resolve once the stderr collected so far contains `text`. */
export async function waitForStderr(
  stderrSoFar: () => string,
  text: string,
  timeoutMs = 20_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!stderrSoFar().includes(text)) {
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${JSON.stringify(text)}; got ${stderrSoFar()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The environment for a launcher run pointed at the fixture server. */
export function fixtureEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, CAVEMAN_MCP_BINARY: FIXTURE, ...extra };
}
