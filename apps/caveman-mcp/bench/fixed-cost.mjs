// The fixed cost of an install: what caveman-mcp adds to every model request, before any tool is
// called — the `tools/list` schemas (name, description, input schema) and the server's
// `instructions`, counted in o200k tokens (gpt-tokenizer) as the built binary serves them over
// stdio, for each tool-family setting an install can pick. A host sends these with every request
// (Gemini CLI, Codex, Cursor); Claude Code defers MCP tools behind ToolSearch, so there it pays
// the names until a tool is loaded, then the schema on every later request. Figures go to
// bench/results/fixed-cost.json.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable, writeResults } from "@caveman/bench";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const SETTINGS = [
  ["retrieve", "install default (hook setups: the hook compresses outside the model's calls)"],
  ["retrieve,edit", "install --tools retrieve,edit"],
  ["compress", "the compression family"],
  ["compress,edit", "the server's own default (before: what install registered was retrieve,edit)"],
];

const base = mkdtempSync(join(tmpdir(), "caveman-fixed-cost-"));
const rows = [];
try {
  for (const [tools, what] of SETTINGS) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "--tools", tools, "--root", base, "--ephemeral", "--chip-dir", join(base, "chips")],
      env: { PATH: process.env.PATH ?? "", HOME: base },
      stderr: "ignore",
    });
    const client = new Client({ name: "fixed-cost", version: "1" });
    await client.connect(transport);
    const { tools: list } = await client.listTools();
    const instructions = client.getInstructions() ?? "";
    await client.close();
    const schemas = list.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.inputSchema,
    }));
    const schemaTokens = countTokens(JSON.stringify(schemas));
    rows.push({
      tools,
      what,
      count: list.length,
      schema_tokens: schemaTokens,
      instruction_tokens: instructions ? countTokens(instructions) : 0,
      per_request_tokens: schemaTokens + (instructions ? countTokens(instructions) : 0),
      names_tokens: countTokens(list.map((t) => t.name).join("\n")),
    });
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
printTable(
  "fixed cost per request (o200k tokens)",
  rows.map(({ what, ...r }) => r),
);
const byTools = Object.fromEntries(rows.map((r) => [r.tools, r.per_request_tokens]));
writeResults("fixed-cost", {
  rows,
  install_default_before: byTools["retrieve,edit"],
  install_default_after: byTools.retrieve,
  saved_per_request: byTools["retrieve,edit"] - byTools.retrieve,
});
