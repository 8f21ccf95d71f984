// Host tier for Gemini CLI: the real `@google/gemini-cli` 0.61.0 bundle (a devDependency of this
// package) against a scripted Gemini API on loopback (`GOOGLE_GEMINI_BASE_URL`), with caveman-mcp
// installed the user's way (`caveman-mcp install gemini` in a throwaway HOME). The model runs
// `cat app.log`; the hook compresses it and asks for a tail call of `read_file` on its stand-in.
// Asserted on the next request the model got: our header line (the way back) reaches it exactly
// once, first and outside every `<untrusted_context>` wrapper (Gemini's system prompt tells the model to ignore directives
// inside those), the log's data still inside one, and the handle gives back the original.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_CLI, workspace } from "./claude.js";

const REPO = resolve(SERVER_CLI, "..", "..", "..", "..");
const BUNDLE = join(REPO, "apps", "claude-plugin", "dist", "plugins", "caveman-mcp", "server", "cli.mjs");
const GEMINI = join(
  dirname(createRequire(import.meta.url).resolve("@google/gemini-cli/package.json")),
  "bundle",
  "gemini.js",
);

interface Part {
  text?: string;
  functionCall?: unknown;
  functionResponse?: { name: string; response: { output?: string } };
}

/** Turn 1: run_shell_command "cat app.log"; then a text answer. Records every request body. */
async function fakeGemini() {
  const bodies: Array<{ url: string; contents: Array<{ role: string; parts: Part[] }> }> = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      const parsed = body ? (JSON.parse(body) as { contents?: Array<{ role: string; parts: Part[] }> }) : {};
      const contents = parsed.contents ?? [];
      bodies.push({ url: req.url ?? "", contents });
      const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
      if (!req.url?.includes("streamGenerateContent")) {
        // The model router's classifier (a side request): any well-formed answer.
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            candidates: [{ content: { role: "model", parts: [{ text: "{}" }] }, finishReason: "STOP" }],
            usageMetadata: usage,
          }),
        );
        return;
      }
      const turn = contents.filter((c) => c.role === "model").length;
      const parts =
        turn === 0
          ? [{ functionCall: { name: "run_shell_command", args: { command: "cat app.log" } } }]
          : [{ text: "done" }];
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata: usage })}\n\n`,
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("Gemini CLI 0.61.0 with caveman-mcp installed", () => {
  it("hands the model our recovery line once, outside any untrusted wrapper, and the handle gives the original back", async () => {
    const ws = workspace();
    const home = join(ws.base, "home");
    mkdirSync(home, { recursive: true });
    const api = await fakeGemini();
    try {
      const env: Record<string, string> = {
        PATH: [dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
        HOME: home,
        GEMINI_API_KEY: "test-key",
        GOOGLE_GEMINI_BASE_URL: api.url,
        HTTPS_PROXY: "http://127.0.0.1:9",
        HTTP_PROXY: "http://127.0.0.1:9",
        NO_PROXY: "127.0.0.1,localhost",
        GEMINI_CLI_NO_RELAUNCH: "true",
        CAVEMAN_HOOK_CONFIG: join(ws.base, "hooks.json"),
      };
      writeFileSync(join(ws.base, "hooks.json"), '{"budget_ms": 60000, "stdin_timeout_ms": 30000}');
      const install = spawnSync(process.execPath, [BUNDLE, "install", "gemini"], {
        cwd: ws.root,
        env,
        encoding: "utf8",
      });
      expect(install.status, install.stderr).toBe(0);
      // API-key auth and no folder-trust prompt, as a user of a headless run sets them.
      const settingsFile = join(home, ".gemini", "settings.json");
      const settings = JSON.parse(readFileSync(settingsFile, "utf8"));
      settings.security = { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } };
      writeFileSync(settingsFile, JSON.stringify(settings, null, 2));

      const log = Array.from({ length: 3000 }, (_, i) =>
        i === 1700
          ? `2026-11-30T10:28:20.000Z ERROR payment id=${i} failed: card_declined (upstream 402)`
          : `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.000Z INFO request id=${i} path=/api/users/${i % 13} status=200`,
      ).join("\n");
      writeFileSync(join(ws.root, "app.log"), `${log}\n`);
      const child = spawn(process.execPath, [GEMINI, "-p", "go", "--yolo", "--output-format", "json"], {
        cwd: ws.root,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString("utf8");
      });
      child.stderr.on("data", (c: Buffer) => {
        err += c.toString("utf8");
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
      const code = await new Promise<number | null>((r) => child.on("close", (c) => r(c)));
      clearTimeout(timer);
      expect(code, err.slice(-3000)).toBe(0);
      const tools = (
        JSON.parse(out) as { stats: { tools: { byName: Record<string, { count: number; fail: number }> } } }
      ).stats.tools.byName;
      expect(tools.read_file, "the tail call ran").toMatchObject({ count: 1, fail: 0 });

      const responses = api.bodies
        .flatMap((b) => b.contents.flatMap((c) => c.parts))
        .flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
      const shell = responses.find((r) => r.name === "run_shell_command");
      const text = shell?.response.output ?? "";
      console.log(
        `[host] gemini: ${log.length} characters of log reached the model as ${text.length}:\n${text}`,
      );
      expect(text).toContain("card_declined");
      expect(text.length).toBeLessThan(log.length / 10);
      const recovery = text.match(/\[caveman: [^\n]*recovery_handle "(ccr_[0-9a-f]{32})"[^\n]*\]/g) ?? [];
      expect(recovery, "our recovery line, once").toHaveLength(1);
      // The header line (the way back) comes first, outside; the data follows in one wrapper.
      expect(text.match(/<untrusted_context>/g), "one wrapper, around the data").toHaveLength(1);
      expect(
        text.startsWith(`${recovery[0]}\n<untrusted_context>\n`),
        "the header line precedes the wrapper",
      ).toBe(true);
      expect(text.trimEnd().endsWith("</untrusted_context>")).toBe(true);

      const handle = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(recovery[0]!)![1]!;
      const back = spawnSync(process.execPath, [BUNDLE, "retrieve", handle], {
        cwd: ws.root,
        env,
        encoding: "utf8",
      });
      expect(back.status, back.stderr).toBe(0);
      expect(back.stdout).toContain(`${log}\n`);
    } finally {
      await api.close();
      if (!process.env.HOST_TEST_KEEP) rmSync(ws.base, { recursive: true, force: true });
    }
  }, 600_000);
});
