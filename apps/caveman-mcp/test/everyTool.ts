// One scenario that calls every tool of the server once, in an order where each call has what it
// needs (a handle from compress, a chip from delete, an edit for undo), for any client: the SDK v1
// and v2 clients and the MCP Inspector CLI each drive it through their own `call`.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

interface ToolReply {
  /** The text blocks joined with newlines. */
  text: string;
  isError: boolean;
}

export type CallTool = (name: string, args: Record<string, unknown>) => Promise<ToolReply>;

const LOG = `${Array.from({ length: 300 }, (_, i) =>
  i % 50 === 7
    ? `2026-11-30T12:00:${String(i % 60).padStart(2, "0")}Z ERROR job ${i} failed: disk_full`
    : `2026-11-30T12:00:${String(i % 60).padStart(2, "0")}Z INFO job ${i} done in ${i % 9} ms`,
).join("\n")}\n`;

/** Calls every tool once against `root`; returns the names called, in order. */
export async function callEveryTool(call: CallTool, root: string): Promise<string[]> {
  const called: string[] = [];
  const ok = async (name: string, args: Record<string, unknown>, want: RegExp): Promise<string> => {
    const reply = await call(name, args);
    expect(reply.isError, `${name} failed: ${reply.text}`).toBe(false);
    expect(reply.text, name).toMatch(want);
    called.push(name);
    return reply.text;
  };
  writeFileSync(join(root, "notes.txt"), "one\ntwo\nthree\n");

  const compressed = await ok("caveman_compress", { input: LOG, hint: "log" }, /disk_full/);
  const handle = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(compressed)?.[1];
  expect(handle, "compress names a recovery handle").toMatch(/^ccr_/);
  await ok("caveman_retrieve", { recovery_handle: handle, query: "disk_full" }, /ERROR job 57 failed/);
  await ok("caveman_stats", {}, /"basis":"inferred"/);
  await ok(
    "caveman_toon_encode",
    {
      input: JSON.stringify({
        users: [
          { id: 1, name: "ada" },
          { id: 2, name: "bob" },
        ],
      }),
    },
    /users\[2\]/,
  );
  await ok("caveman_toon_decode", { input: "a: 1\nb: two" }, /"b":\s*"two"/);

  await ok("be-read", { path: "notes.txt" }, /two/);
  await ok("be-insert", { path: "notes.txt", after_line: 0, content: "zero" }, /\+zero/);
  await ok("be-replace", { path: "notes.txt", old: "two", content: "TWO" }, /\+TWO/);
  await ok("be-delete", { path: "notes.txt", start_line: 4, end_line: 4 }, /chip:\/\/[0-9a-f]+/);
  await ok("be-insert-chip", {}, /[0-9a-f]{6}/);
  await ok("be-undo", { path: "notes.txt" }, /three/);
  await ok("be-batch", { path: "notes.txt", edits: [{ start_line: 1, content: "ZERO" }] }, /\+ZERO/);
  await ok("be-write", { path: "out/new.txt", content: "hi\n", create_dirs: true }, /new\.txt/);
  expect(existsSync(join(root, "out", "new.txt"))).toBe(true);
  return called;
}
