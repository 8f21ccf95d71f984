// Shared by the install tests: run the self-contained server bundle (the platform package's, as
// `npx caveman-mcp` runs it) with a PATH that has node and the system tools but no host CLI.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "jsonc-parser";
import type { Sandbox } from "./helpers.js";

const REPO = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "..");

/** The platform package's server bundle for this machine (the launcher's build lays it out). */
export const BUNDLE = (() => {
  const platforms = join(REPO, "npm", "platforms");
  for (const name of readdirSync(platforms)) {
    const file = join(platforms, name, "dist", "cli.mjs");
    if (existsSync(file)) return file;
  }
  throw new Error("no platform bundle: build the launcher first (turbo runs it before these tests)");
})();

export const VERSION = (
  JSON.parse(readFileSync(join(REPO, "apps", "caveman-mcp", "package.json"), "utf8")) as { version: string }
).version;

export type Box = Sandbox;

/** Only what an install may run: node and the shell tools, never `claude` or `gemini`. */
const PATH = [dirname(process.execPath), "/usr/bin", "/bin"].join(":");

export function cli(
  box: Box,
  args: string[],
  env: Record<string, string> = {},
  cwd = box.root,
  input?: string,
) {
  const r = spawnSync(process.execPath, [BUNDLE, ...args], {
    env: { ...box.env, PATH, ...env },
    cwd,
    input,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// biome-ignore lint/suspicious/noExplicitAny: test reads of arbitrary settings JSON.
export const jsonc = (text: string): any => parse(text, [], { allowTrailingComma: true });
