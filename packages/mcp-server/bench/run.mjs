// In-process bench of the server core (the stdio figures of the binary are in
// apps/caveman-mcp/bench): raw transport round trip of a ping and of a 1 MB tools/call over
// in-memory streams, and line framing throughput. Figures go to bench/results/mcp-server-core.json.
import { PassThrough } from "node:stream";
import { measure, printTable, writeResults } from "@caveman/bench";
import { z } from "zod";
import { defineTool, startServer } from "../dist/index.js";

const stdin = new PassThrough();
const stdout = new PassThrough();
const pending = new Map();
let buf = "";
stdout.on("data", (d) => {
  buf += d.toString("utf8");
  let nl = buf.indexOf("\n");
  while (nl !== -1) {
    const msg = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    pending.get(msg.id)?.(msg);
    pending.delete(msg.id);
    nl = buf.indexOf("\n");
  }
});
const echo = defineTool({
  name: "echo_len",
  family: "compress",
  description: "Length of the input.",
  input: z.strictObject({ input: z.string() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  run: ({ input }) => ({ text: String(input.length) }),
});
const handle = await startServer({ stdin, stdout, tools: [echo], version: "bench" });

let nextId = 1;
function request(method, params) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) })}\n`);
  });
}

const rows = [];
const ping = await measure(() => request("ping"), { minMs: 1000 });
rows.push({ case: "ping", ...pick(ping) });
for (const [label, bytes] of [
  ["tools/call 1KB", 1024],
  ["tools/call 1MB", 1024 * 1024],
]) {
  const input = "x".repeat(bytes);
  const t = await measure(() => request("tools/call", { name: "echo_len", arguments: { input } }), {
    minMs: 1500,
  });
  rows.push({ case: label, ...pick(t) });
}
await handle.close();
printTable("in-process transport round trip (ms)", rows);

function pick(t) {
  return { n: t.n, p50: t.p50Ms, p99: t.p99Ms };
}

writeResults("mcp-server-core", { roundTripMs: rows });
