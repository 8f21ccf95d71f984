// The proxy around the official MCP filesystem server in the real Claude Code CLI (issue 23): its
// read_text_file answers with `structuredContent` (and an `outputSchema`), so Claude Code shows
// the model the structured JSON alone. Behind `caveman-mcp proxy` the model must get the stand-in
// instead (header first, far smaller than the file), and the handle must retrieve from the file.
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { findClaude, runClaude, SERVER_CLI, skipReason, workspace } from "./claude.js";
import { type ScriptedTurn, startFakeModel } from "./fakeModel.js";

const FILESYSTEM = resolve(
  SERVER_CLI,
  "..",
  "..",
  "node_modules",
  "@modelcontextprotocol",
  "server-filesystem",
  "dist",
  "index.js",
);
const HANDLE = /ccr_[0-9a-f]{32}/;

function bigLog(lines = 4000): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(
      i === 2345
        ? "2026-11-02T09:00:00Z ERROR payments charge failed: card_declined"
        : `2026-11-02T09:00:${String(i % 60).padStart(2, "0")}Z INFO http GET /api/items/${i % 50} 200 ${(i * 37) % 400}ms`,
    );
  return `${out.join("\n")}\n`;
}

const unavailable = skipReason();

describe.skipIf(unavailable !== undefined)(
  "the proxy around the official filesystem server in Claude Code",
  () => {
    it("replaces what the model is shown of a structured result with the stand-in, and the handle retrieves the file's lines", async () => {
      const claude = findClaude();
      if (!("path" in claude)) throw new Error(claude.missing);
      const ws = workspace();
      const log = bigLog();
      const file = join(ws.root, "app.log");
      writeFileSync(file, log);
      const turns: ScriptedTurn[] = [
        () => [{ type: "tool_use", name: "ToolSearch", input: { query: "select:mcp__fs__read_text_file" } }],
        () => [{ type: "tool_use", name: "mcp__fs__read_text_file", input: { path: file } }],
        (results) => {
          const h = HANDLE.exec(results.get("t1_0")?.text ?? "")?.[0];
          return h
            ? [
                {
                  type: "tool_use",
                  name: "mcp__caveman__caveman_retrieve",
                  input: { recovery_handle: h, query: "lines:2344-2348" },
                },
              ]
            : [{ type: "text", text: "no handle" }];
        },
        () => [{ type: "text", text: "done" }],
      ];
      const fake = await startFakeModel(turns);
      try {
        await runClaude({
          claude: claude.path,
          apiUrl: fake.url,
          ws,
          prompt: "Read the log.",
          env: { CAVEMAN_CCR_DB: ws.db },
          servers: {
            fs: {
              command: process.execPath,
              args: [SERVER_CLI, "proxy", "--", process.execPath, FILESYSTEM, ws.root],
            },
          },
          timeoutMs: 240_000,
        });
      } finally {
        await fake.close();
      }
      const results = fake.results();
      const shown = results.get("t1_0");
      expect(shown, `no read result; script errors: ${fake.scriptErrors.join("; ")}`).toBeDefined();
      expect(shown!.isError, shown!.text.slice(0, 300)).toBe(false);
      expect(shown!.text.startsWith("[caveman: ")).toBe(true);
      expect(shown!.text.length).toBeLessThan(log.length / 10);
      expect(shown!.text).toContain("card_declined");
      const back = results.get("t2_0");
      expect(back?.isError, back?.text.slice(0, 300)).toBe(false);
      // The whole file is over Claude Code's MCP output limit; a slice of it names the failure.
      expect(back?.text).toContain(log.split("\n").slice(2343, 2348).join("\n"));
      process.stdout.write(
        `filesystem read_text_file through the proxy: ${log.length} chars in the file, ${shown!.text.length} chars shown to the model\n`,
      );
    }, 300_000);
  },
);
