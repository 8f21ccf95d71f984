// Process-test helpers: every test spawns the built binary (dist/cli.js) with its own temp home,
// chip directory and edit root (removed when the test ends), and talks to it with the SDK Client
// or with raw bytes.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type LineProcess, spawnLines, tempDir } from "@caveman/test-kit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, onTestFinished } from "vitest";

export const CLI = resolve(fileURLToPath(new URL(".", import.meta.url)), "..", "dist", "cli.js");

export interface Sandbox {
  base: string;
  root: string;
  chipDir: string;
  db: string;
  env: Record<string, string>;
}

export function sandbox(): Sandbox {
  const base = tempDir("caveman-mcp-app-");
  const root = join(base, "root");
  mkdirSync(root);
  const chipDir = join(base, "chips");
  const db = join(base, "home", "ccr.db");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: join(base, "home"),
    CAVEMAN_CCR_DB: db,
    CAVEMAN_CHIP_DIR: chipDir,
    CAVEMAN_ROOTS: root,
    // Tests set their own deadlines: a compress must finish on a loaded machine, where the
    // production 4 s engine deadline would turn it into a pass-through (a test of the deadline
    // passes --engine-timeout-ms, which wins over this).
    CAVEMAN_ENGINE_TIMEOUT_MS: "120000",
    // Node 22+ keeps the binary's compile cache under the user's cache directory: outside HOME, so
    // a test that snapshots HOME sees only what the command under test wrote there.
    XDG_CACHE_HOME: join(base, "cache"),
  };
  return { base, root, chipDir, db, env };
}

export async function connect(
  box: Sandbox,
  args: string[] = [],
  nodeFlags: string[] = [],
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeFlags, CLI, ...args],
    env: box.env,
    cwd: box.root,
    stderr: "pipe",
  });
  const client = new Client({ name: "caveman-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/**
 * The two ways a host may read a tool result: only the text blocks, or only `structuredContent`
 * when there is one (Claude Code then gives the model its JSON and nothing else). The result
 * contract says both carry the whole payload; for this server they are the same string.
 */
export function readings(result: unknown): { textOnly: string; structuredOnly: string } {
  const r = result as CallToolResult;
  const textOnly = r.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
  const structuredOnly = r.structuredContent === undefined ? textOnly : JSON.stringify(r.structuredContent);
  return { textOnly, structuredOnly };
}

/** Fails unless a text-only and a structured-only client read the same payload. */
function sameToBothReaders(result: unknown): string {
  const { textOnly, structuredOnly } = readings(result);
  expect(structuredOnly, "a structured-only client reads less than a text-only one").toBe(textOnly);
  return textOnly;
}

/** The first text block (the byte-exact payload), after checking both readings carry it. */
export function text(result: unknown): string {
  sameToBothReaders(result);
  const first = (result as CallToolResult).content[0];
  return first && first.type === "text" ? first.text : "";
}

/** Everything a client reads, after checking both readings are the same. */
export function allText(result: unknown): string {
  return sameToBothReaders(result);
}

/** The recovery handle a compress result names in its note, or null for a pass-through. */
export function handleIn(result: unknown): string | null {
  return /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(allText(result))?.[1] ?? null;
}

/** A raw child: write bytes, read stdout lines as parsed JSON (`next`), wait for `exit`. */
export type Raw = LineProcess;

export function spawnRaw(box: Sandbox, args: string[] = []): Raw {
  return spawnLines(process.execPath, [CLI, ...args], { env: box.env, cwd: box.root });
}

export const INIT = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
})}\n`;

export const ping = (id: number | string) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`;

/** A connected SDK client for the current test, closed when the test finishes. */
export async function testClient(box: Sandbox, args: string[] = []): Promise<Client> {
  const { client } = await connect(box, args);
  onTestFinished(() => client.close());
  return client;
}
