// Claude Code's PostToolUse hook. Contract: from the hook's stdin object, return the object to
// print — `{hookSpecificOutput: {hookEventName: "PostToolUse", updatedToolOutput}}` — or a pass
// reason when the original should reach the model. Claude Code checks `updatedToolOutput` against
// the built-in tool's own output schema and silently drops a mismatch, so each shape is built
// fresh from exactly the fields that schema accepts (a spread would carry `persistedOutputPath`
// along, and the model would then get a "too large" stub instead of our text):
//   Bash {stdout, stderr, interrupted}; Read {type:"text", file:{filePath, content, numLines,
//   startLine, totalLines}}; Grep {numFiles, filenames, mode:"content", content, numLines};
//   MCP tools (unchecked): a string, or an array of text blocks.

import { readCutNote } from "@caveman/keep/note";
import {
  bashBudget,
  grepBudget,
  grepShownChars,
  MCP_MAX_OUTPUT_TOKENS,
  mcpBudget,
  readBudget,
  splitBudget,
} from "./budget.js";
import { type HookDecision, isObj, mcpTexts, type Obj, openEvent } from "./event.js";
import { wholeDataFile } from "./fullRead.js";
import { readPersisted } from "./persisted.js";
import { hintForCommand, hintForPath, wantsRaw } from "./policy.js";
import { type HookContext, type Shrunk, shrink } from "./shrink.js";
import { unwrappedCommand } from "./wrap.js";

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function lineCount(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

function insertAfterHeader(standIn: string, line: string): string {
  const cut = standIn.indexOf("\n");
  return cut < 0 ? `${standIn}\n${line}` : `${standIn.slice(0, cut + 1)}${line}\n${standIn.slice(cut + 1)}`;
}

/** Tokens the note after a whole-file stand-in may cost (it names three line numbers). */
const NOTE_RESERVE = 40;

function reply(updatedToolOutput: unknown, handles: string[]): HookDecision {
  return { output: { hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput } }, handles };
}

/**
 * Compress each text that is worth it, one after another, within one budget shared by length;
 * `pass` is set when none was.
 */
async function shrinkAll(
  texts: string[],
  opts: { hint?: string; producer: string; budget: number },
  ctx: HookContext,
): Promise<{ texts: string[]; handles: string[]; pass?: string }> {
  const handles: string[] = [];
  // The reason reported is the largest text's: an empty stderr is not why a big stdout stayed.
  let pass = "not_smaller";
  let passSize = -1;
  const out: string[] = [];
  const budgets = splitBudget(
    opts.budget,
    texts.map((t) => t.length),
  );
  for (const [i, text] of texts.entries()) {
    if (text === "") {
      out.push(text);
      continue;
    }
    const r: Shrunk | { pass: string } = await shrink(
      { text, ...opts, budget: budgets[i]!, source: "output" },
      ctx,
    );
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
  // A command the PreToolUse hook wrapped is named by its original (the wrapper's own stand-in
  // passes here as already compressed).
  const command = unwrappedCommand(str(input.command) ?? "");
  if (wantsRaw(command, ctx.settings)) return { pass: "raw_requested" };
  let stdout = str(response.stdout);
  const stderr = str(response.stderr) ?? "";
  if (stdout === undefined || response.isImage === true) return { pass: "unexpected_shape" };
  const persisted = str(response.persistedOutputPath);
  let hostText = true;
  if (persisted !== undefined) {
    const full = readPersisted(persisted, ctx.persistRoots, ctx.settings.maxInputBytes);
    // The host's cut must be a prefix of what we read, or this is not the same output (an empty
    // cut proves nothing: the host persists only outputs far larger than its preview).
    const probe = stdout.slice(0, 2000);
    if (full === null || probe === "" || !full.startsWith(probe)) return { pass: "persisted_unreadable" };
    stdout = full;
    hostText = false;
  }
  const hint = hintForCommand(command);
  // Inline stdout reaches a hook with its leading and trailing newlines trimmed by the host: the
  // original kept is then the host's text, and its metadata says so.
  const producer = hostText ? `Bash [host-trimmed]: ${command}` : `Bash: ${command}`;
  const budget = bashBudget(
    stdout.length + stderr.length,
    persisted !== undefined,
    ctx.settings.budgetTokens,
  );
  const r = await shrinkAll([stdout, stderr], { ...(hint ? { hint } : {}), producer, budget }, ctx);
  // Nothing shrank: the host's own output (or, when persisted, its stub naming the file) stands.
  if (r.handles.length === 0) return { pass: r.pass ?? "not_smaller" };
  return reply(
    { stdout: r.texts[0], stderr: r.texts[1], interrupted: response.interrupted === true },
    r.handles,
  );
}

async function read(
  input: Obj,
  response: Obj,
  ctx: HookContext,
  cwd: string | undefined,
): Promise<HookDecision> {
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
  // A data file the host's line cap cut short (the model asked for no range) is read whole from
  // disk and compressed as its kind; the stand-in says which lines Read had returned.
  const shown = typeof file.numLines === "number" ? file.numLines : lineCount(content);
  const cut =
    input.offset === undefined && input.limit === undefined && startLine === 1 && shown < totalLines;
  const whole = cut ? wholeDataFile(filePath, hintForPath(filePath), content, ctx, cwd) : null;
  const text = whole?.text ?? content;
  const r = await shrink(
    {
      text,
      hint,
      producer: `Read: ${filePath}`,
      source: "read",
      budget: readBudget(cut, ctx.settings.budgetTokens) - (whole ? NOTE_RESERVE : 0),
    },
    ctx,
  );
  if ("pass" in r) return r;
  // The note goes right under the header (a host view may keep only the start), and nothing
  // follows the last line: Claude Code showed one line fewer of a Read that ended in a newline.
  const body = whole
    ? insertAfterHeader(r.text, readCutNote(startLine, shown, totalLines)).replace(/\n+$/, "")
    : r.text;
  return reply(
    { type: "text", file: { filePath, content: body, numLines: lineCount(body), startLine, totalLines } },
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
    {
      text: content,
      hint: "grep",
      producer: `Grep: ${str(input.pattern) ?? ""}`,
      source: "output",
      budget: grepBudget(
        grepShownChars(content, response.appliedLimit, response.appliedOffset),
        ctx.settings.budgetTokens,
      ),
    },
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
  const chars = blocks.texts.reduce((n, t) => n + t.length, 0);
  const budget = mcpBudget(chars, ctx.mcpLimitTokens ?? MCP_MAX_OUTPUT_TOKENS, ctx.settings.budgetTokens);
  const r = await shrinkAll(blocks.texts, { producer: toolName, budget }, ctx);
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
      return read(input, response, ctx, str(opened.event.cwd));
    case "Grep":
      return grep(input, response, ctx);
    default:
      return { pass: "unknown_tool" };
  }
}
