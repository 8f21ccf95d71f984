// Process-test helpers: every test spawns the built binary (dist/cli.js) with its own temp home,
// chip directory and edit root, and talks to it with the SDK Client or with raw bytes.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
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
  const base = realpathSync(mkdtempSync(join(tmpdir(), "caveman-mcp-app-")));
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
export function sameToBothReaders(result: unknown): string {
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
  return /retrieve (ccr_[0-9a-f]{32})\]/.exec(allText(result))?.[1] ?? null;
}

/** A raw child: write bytes, read stdout lines as parsed JSON, wait for exit. */
export interface Raw {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  write(data: string | Buffer): void;
  next(count?: number, timeoutMs?: number): Promise<unknown[]>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnRaw(box: Sandbox, args: string[] = []): Raw {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: box.env,
    cwd: box.root,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let buffered = "";
  let err = "";
  const waiters: Array<() => void> = [];
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    let nl = buffered.indexOf("\n");
    while (nl !== -1) {
      lines.push(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf("\n");
    }
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.on("data", (c: Buffer) => {
    err += c.toString("utf8");
  });
  child.stdin!.on("error", () => {});
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on("exit", (code, signal) => {
      for (const w of waiters.splice(0)) w();
      r({ code, signal });
    }),
  );
  let consumed = 0;
  return {
    child,
    lines,
    stderr: () => err,
    exit,
    write: (data) => {
      child.stdin!.write(data);
    },
    async next(count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (lines.length < consumed + count) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`expected ${count} line(s); stderr: ${err}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
      const out = lines.slice(consumed, consumed + count).map((l) => JSON.parse(l) as unknown);
      consumed += count;
      return out;
    },
  };
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
