// Claude Code's PostToolUse hook. Contract: from the hook's stdin object, return the object to
// print — `{hookSpecificOutput: {hookEventName: "PostToolUse", updatedToolOutput}}` — or a pass
// reason when the original should reach the model. Claude Code checks `updatedToolOutput` against
// the built-in tool's own output schema and silently drops a mismatch, so each shape is built
// fresh from exactly the fields that schema accepts (a spread would carry `persistedOutputPath`
// along, and the model would then get a "too large" stub instead of our text):
//   Bash {stdout, stderr, interrupted}; Read {type:"text", file:{filePath, content, numLines,
//   startLine, totalLines}}; Grep {numFiles, filenames, mode:"content", content, numLines};
//   MCP tools (unchecked): a string, or an array of text blocks.

import { type HookDecision, isObj, mcpTexts, type Obj, openEvent } from "./event.js";
import { readPersisted } from "./persisted.js";
import { hintForCommand, hintForPath, wantsRaw } from "./policy.js";
import { type HookContext, type Shrunk, shrink } from "./shrink.js";

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function lineCount(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

function reply(updatedToolOutput: unknown, handles: string[]): HookDecision {
  return { output: { hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput } }, handles };
}

/** Compress each text that is worth it, one after another; `pass` is set when none was. */
async function shrinkAll(
  texts: string[],
  opts: { hint?: string; producer: string },
  ctx: HookContext,
): Promise<{ texts: string[]; handles: string[]; pass?: string }> {
  const handles: string[] = [];
  // The reason reported is the largest text's: an empty stderr is not why a big stdout stayed.
  let pass = "not_smaller";
  let passSize = -1;
  const out: string[] = [];
  for (const text of texts) {
    if (text === "") {
      out.push(text);
      continue;
    }
    const r: Shrunk | { pass: string } = await shrink({ text, ...opts, source: "output" }, ctx);
    if ("pass" in r) {
      if (text.length > passSize) [pass, passSize] = [r.pass, text.length];
      out.push(text);
      continue;
    }
    handles.push(r.handle);
    out.push(r.text);
  }
  return handles.length ? { texts: out, handles } : { texts: out, handles, pass };
}

async function bash(input: Obj, response: Obj, ctx: HookContext): Promise<HookDecision> {
  const command = str(input.command) ?? "";
  if (wantsRaw(command, ctx.settings)) return { pass: "raw_requested" };
  let stdout = str(response.stdout);
  const stderr = str(response.stderr) ?? "";
  if (stdout === undefined || response.isImage === true) return { pass: "unexpected_shape" };
  const persisted = str(response.persistedOutputPath);
  if (persisted !== undefined) {
    const full = readPersisted(persisted, ctx.persistRoots, ctx.settings.maxInputBytes);
    // The host's cut must be a prefix of what we read, or this is not the same output (an empty
    // cut proves nothing: the host persists only outputs far larger than its preview).
    const probe = stdout.slice(0, 2000);
    if (full === null || probe === "" || !full.startsWith(probe)) return { pass: "persisted_unreadable" };
    stdout = full;
  }
  const hint = hintForCommand(command);
  const producer = `Bash: ${command}`;
  const r = await shrinkAll([stdout, stderr], { ...(hint ? { hint } : {}), producer }, ctx);
  // Nothing shrank: the host's own output (or, when persisted, its stub naming the file) stands.
  if (r.handles.length === 0) return { pass: r.pass ?? "not_smaller" };
  return reply(
    { stdout: r.texts[0], stderr: r.texts[1], interrupted: response.interrupted === true },
    r.handles,
  );
}

async function read(response: Obj, ctx: HookContext): Promise<HookDecision> {
  const file = response.file;
  if (response.type !== "text" || !isObj(file)) return { pass: "unexpected_shape" };
  const filePath = str(file.filePath);
  const content = str(file.content);
  const startLine = file.startLine;
  const totalLines = file.totalLines;
  if (
    filePath === undefined ||
    content === undefined ||
    typeof startLine !== "number" ||
    typeof totalLines !== "number"
  )
    return { pass: "unexpected_shape" };
  const hint = hintForPath(filePath) ?? "Read";
  const r = await shrink({ text: content, hint, producer: `Read: ${filePath}`, source: "read" }, ctx);
  if ("pass" in r) return r;
  return reply(
    { type: "text", file: { filePath, content: r.text, numLines: lineCount(r.text), startLine, totalLines } },
    [r.handle],
  );
}

async function grep(input: Obj, response: Obj, ctx: HookContext): Promise<HookDecision> {
  const content = str(response.content);
  const filenames = response.filenames;
  if (response.mode !== "content" || content === undefined) return { pass: "not_content_mode" };
  if (
    typeof response.numFiles !== "number" ||
    !Array.isArray(filenames) ||
    !filenames.every((f) => typeof f === "string")
  )
    return { pass: "unexpected_shape" };
  const r = await shrink(
    { text: content, hint: "grep", producer: `Grep: ${str(input.pattern) ?? ""}`, source: "output" },
    ctx,
  );
  if ("pass" in r) return r;
  return reply(
    { numFiles: response.numFiles, filenames, mode: "content", content: r.text, numLines: lineCount(r.text) },
    [r.handle],
  );
}

async function mcp(toolName: string, response: unknown, ctx: HookContext): Promise<HookDecision> {
  const blocks = mcpTexts(response);
  if (!blocks) return { pass: "non_text_result" };
  const r = await shrinkAll(blocks.texts, { producer: toolName }, ctx);
  if (r.handles.length === 0) return { pass: r.pass ?? "not_smaller" };
  const out = blocks.asString ? r.texts.join("") : r.texts.map((text) => ({ type: "text", text }));
  return reply(out, r.handles);
}

/** Decide what Claude Code's PostToolUse hook prints for this stdin object. Never throws on odd input. */
export async function claudeCodePostToolUse(event: unknown, ctx: HookContext): Promise<HookDecision> {
  const opened = openEvent(event, "PostToolUse", ctx.settings);
  if ("pass" in opened) return opened;
  const { toolName, input } = opened;
  const response = opened.event.tool_response;
  if (toolName.startsWith("mcp__")) return mcp(toolName, response, ctx);
  if (!isObj(response)) return { pass: "unexpected_shape" };
  switch (toolName) {
    case "Bash":
      return bash(input, response, ctx);
    case "Read":
      return read(response, ctx);
    case "Grep":
      return grep(input, response, ctx);
    default:
      return { pass: "unknown_tool" };
  }
}
