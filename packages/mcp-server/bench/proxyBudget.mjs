// Before/after of the proxy's budgets on real outputs (packages/engine/corpus/real/items), in one
// run: each file is served as the official filesystem server's read_text_file answers it (text
// block + structuredContent) and relayed through startProxy twice — before: keep with no budget
// (the proxy until issue 23), after: keepTransform (budget.ts). Both with the hooks' defaults
// (floor 500, least gain 0.2). "Model reads" is what Claude Code shows: over MAX_MCP_OUTPUT_TOKENS
// (25,000) only its error stub, counted as the 489 tokens the session bench measured.
// Run: pnpm --filter @caveman/mcp-server build && pnpm --filter @caveman/mcp-server bench:proxy
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { openMemoryStore } from "@caveman/ccr-store";
import { countTokens } from "@caveman/engine";
import { inlineRunner, keep } from "@caveman/keep";
import { HOST_MCP_LIMIT_TOKENS, keepTransform, startProxy } from "../dist/index.js";

const HOST_STUB_TOKENS = 489;
const ITEMS = new URL("../../engine/corpus/real/items/", import.meta.url);
const FILES = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [
      "log-postgres-statements.log",
      "log-postgres-durations.log",
      "log-dpkg.log",
      "json-express-mocha-report.json",
      "json-express-eslint-report.json",
      "json-express-npm-ls.json",
      "diff-gson-log-p.diff",
      "diff-vite-log-p-server.diff",
    ];
const SETTINGS = { floorTokens: 500, minGain: 0.2 };

/** What the model reads of a result the host is shown: the stub when over the host's limit. */
const reads = (text) => {
  const t = countTokens(text);
  return t > HOST_MCP_LIMIT_TOKENS ? HOST_STUB_TOKENS : t;
};

async function through(transform, text) {
  const [cin, cout, sin, sout] = [new PassThrough(), new PassThrough(), new PassThrough(), new PassThrough()];
  const proxy = startProxy({ stdin: cin, stdout: cout, upstream: { stdin: sin, stdout: sout }, transform });
  let buf = "";
  const answer = new Promise((resolve) => {
    cout.on("data", (c) => {
      buf += c.toString("utf8");
      const nl = buf.indexOf("\n");
      if (nl !== -1) resolve(JSON.parse(buf.slice(0, nl)));
    });
  });
  cin.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_text_file"}}\n');
  await new Promise((r) => setTimeout(r, 10));
  const result = { content: [{ type: "text", text }], structuredContent: { content: text } };
  sout.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, result })}\n`);
  const msg = await answer;
  cin.end();
  sout.end();
  await proxy.closed;
  // Claude Code shows the structured part when there is one, else the text blocks.
  const r = msg.result;
  return r.structuredContent ? JSON.stringify(r.structuredContent) : r.content.map((b) => b.text).join("\n");
}

const store = openMemoryStore();
const before = async (tool, text) => {
  const r = await keep({ text, producer: tool, ...SETTINGS }, { run: inlineRunner, store });
  return r.kept ? r.text : null;
};
const after = keepTransform({ run: inlineRunner, store, ...SETTINGS });

const rows = [];
for (const name of FILES) {
  const text = readFileSync(new URL(name, ITEMS), "utf8");
  const shown = JSON.stringify({ content: text });
  const b = await through(before, text);
  const a = await through(after, text);
  rows.push({
    file: name,
    "tokens in": countTokens(shown),
    host: reads(shown),
    before: reads(b),
    after: reads(a),
    "after stand-in": countTokens(a),
  });
}
const total = (k) => rows.reduce((s, r) => s + r[k], 0);
rows.push({
  file: "total",
  "tokens in": total("tokens in"),
  host: total("host"),
  before: total("before"),
  after: total("after"),
  "after stand-in": total("after stand-in"),
});
console.table(rows);
