// The install part of `doctor`: where caveman-mcp is registered (the Claude Code plugin, the
// settings files of both scopes of Claude Code and Gemini CLI) and whether what each registration
// starts is still there. Contract: read-only; a settings file that cannot be parsed is reported,
// not thrown; an absolute path in a registered command (the script, the node binary, the plugin's
// marketplace directory) that no longer exists fails, with the fix — a registration that points
// into a cleaned npx cache must not pass as "not installed".
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ParseError, parse } from "jsonc-parser";
import type { Config } from "../config.js";
import { MARKETPLACE, PLUGIN_DIR, PLUGIN_ID, SERVER_ENTRY } from "../plugin/layout.js";
import type { Check } from "./hookCheck.js";
import { SERVER_NAME } from "./hostFiles.js";

/** Words of a shell command line (quotes removed; enough for the commands installs write). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g))
    out.push(m[1] ?? m[2]?.replace(/\\(.)/g, "$1") ?? m[3]!);
  return out;
}

function read(file: string): { value: Record<string, unknown> } | { problem: string } | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT"
      ? null
      : { problem: `cannot be read (${(err as NodeJS.ErrnoException).code})` };
  }
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length || value === null || typeof value !== "object" || Array.isArray(value))
    return { problem: "is not a JSON object" };
  return { value: value as Record<string, unknown> };
}

const missing = (ws: readonly string[]) =>
  ws.filter((w) => w.startsWith("/") && !w.includes("${") && !existsSync(w));

interface Found {
  where: string;
  command: string[];
}

function registered(obj: Record<string, unknown>, event: string, host: string): Found[] {
  const out: Found[] = [];
  const groups = (obj.hooks as Record<string, unknown> | undefined)?.[event];
  for (const g of Array.isArray(groups) ? groups : []) {
    for (const h of Array.isArray((g as { hooks?: unknown })?.hooks)
      ? (g as { hooks: unknown[] }).hooks
      : []) {
      const c = (h as { command?: unknown })?.command;
      if (typeof c === "string" && c.endsWith(` hook ${host}`))
        out.push({ where: `hooks.${event}`, command: words(c) });
    }
  }
  const server = (obj.mcpServers as Record<string, unknown> | undefined)?.[SERVER_NAME] as
    | { command?: unknown; args?: unknown }
    | undefined;
  if (server && typeof server.command === "string")
    out.push({
      where: `mcpServers.${SERVER_NAME}`,
      command: [
        server.command,
        ...(Array.isArray(server.args) ? server.args.filter((a) => typeof a === "string") : []),
      ],
    });
  return out;
}

export function installChecks(config: Config): Check[] {
  const h = config.hooks;
  const checks: Check[] = [];
  const files: Array<{ host: "claude-code" | "gemini"; file: string; event: string; scope: string }> = [
    { host: "claude-code", file: join(h.claudeDir, "settings.json"), event: "PostToolUse", scope: "user" },
    { host: "claude-code", file: h.claudeJson, event: "PostToolUse", scope: "user" },
    {
      host: "claude-code",
      file: join(h.cwd, ".claude", "settings.json"),
      event: "PostToolUse",
      scope: "project",
    },
    { host: "claude-code", file: join(h.cwd, ".mcp.json"), event: "PostToolUse", scope: "project" },
    { host: "gemini", file: join(h.geminiDir, "settings.json"), event: "AfterTool", scope: "user" },
    { host: "gemini", file: join(h.cwd, ".gemini", "settings.json"), event: "AfterTool", scope: "project" },
  ];
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.file)) continue;
    seen.add(f.file);
    const r = read(f.file);
    if (r === null) continue;
    if ("problem" in r) {
      checks.push({
        ok: false,
        what: `${f.host} settings`,
        detail: `${f.file} ${r.problem}; fix: repair the file (installs refuse to touch it until then)`,
      });
      continue;
    }
    const events = f.host === "claude-code" ? ["PreToolUse", f.event] : [f.event];
    for (const reg of events.flatMap((e) => registered(r.value, e, f.host))) {
      const gone = missing(reg.command);
      checks.push({
        ok: gone.length === 0,
        what: `${f.host} install`,
        detail: gone.length
          ? `${f.file} ${reg.where} runs ${gone.join(", ")}, which no longer exists; fix: caveman-mcp install ${f.host}${f.scope === "project" ? " --scope project" : ""} (it registers a stable copy)`
          : `${reg.where} in ${f.file}`,
      });
    }
    // The plugin: its marketplace is a directory; what Claude Code runs lives inside it.
    const mkt = (
      r.value.extraKnownMarketplaces as Record<string, { source?: { path?: unknown } }> | undefined
    )?.[MARKETPLACE];
    const enabled = (r.value.enabledPlugins as Record<string, unknown> | undefined)?.[PLUGIN_ID] === true;
    if (enabled && typeof mkt?.source?.path === "string") {
      const server = join(mkt.source.path, PLUGIN_DIR, "server", SERVER_ENTRY);
      checks.push({
        ok: existsSync(server),
        what: "claude-code install",
        detail: existsSync(server)
          ? `plugin ${PLUGIN_ID} from ${mkt.source.path}`
          : `plugin ${PLUGIN_ID} runs ${server}, which no longer exists; fix: caveman-mcp install claude-code`,
      });
    }
  }
  if (!checks.some((c) => c.what.endsWith(" install")))
    checks.push({
      ok: true,
      what: "install",
      detail:
        "not registered with Claude Code or Gemini CLI; fix: caveman-mcp install claude-code (or gemini)",
    });
  return checks;
}
