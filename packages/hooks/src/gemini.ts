// Gemini CLI's AfterTool hook. Contract: from the hook's stdin object, return the object to print,
// or a pass reason. What Gemini CLI 0.61.0 does, read in its source and seen in the real CLI
// against a scripted API (apps/caveman-mcp/test/host-scenarios/gemini-check.mjs):
// - AfterTool cannot overwrite a result. It honours `decision` (block: the result becomes an
//   error), `additionalContext` (appended, with `<` and `>` escaped, inside `<hook_context>`) and
//   `tailToolCallRequest`: a tool call whose result *replaces* the original one's.
// - Shell, MCP and web-fetch results are wrapped in `<untrusted_context>` (`wrapUntrusted`), and
//   the system prompt tells the model to ignore directives inside it. The shell output reaches
//   this hook already wrapped; a tail call of our MCP `caveman_retrieve` wrapped it a second time,
//   so the recovery line the model must follow sat inside two untrusted blocks.
// - `read_file` results are not wrapped, and it may read the project's temp directory
//   (`~/.gemini/tmp/<project>/`, the parent of the `chats/` folder that `transcript_path` names).
// So the stand-in is written there and the tail call is `read_file` of it. The stand-in's header
// line (the way back, from @caveman/keep) comes first and outside; the tool's data follows inside
// the same `<untrusted_context>` wrapper the tool had (it is still untrusted data): the model reads
// our text once, unwrapped. The original kept in the store is the unwrapped output. The tail
// call's own AfterTool reads our file, which this hook passes. Without a usable `transcript_path`
// the original passes unchanged.
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { type HookDecision, isObj, mcpTexts, openEvent } from "./event.js";
import { hintForCommand, hintForPath, wantsRaw } from "./policy.js";
import { type HookContext, shrink } from "./shrink.js";

export interface GeminiOptions {
  /** Gemini CLI's temp root, `~/.gemini/tmp`: stand-ins go only under a project directory in it. */
  tempRoot: string;
}

const OPEN = "<untrusted_context>\n";
const CLOSE = "\n</untrusted_context>";
/** Our folder inside the project temp directory. */
const STAND_INS = "caveman";

function llmText(response: unknown): string | null {
  if (!isObj(response) || (response.error !== undefined && response.error !== null)) return null;
  const content = response.llmContent;
  if (typeof content === "string") return content;
  const blocks = mcpTexts(content);
  if (blocks) return blocks.texts.join("");
  // Gemini parts are `{text}` without a type.
  if (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((p) => isObj(p) && typeof p.text === "string" && Object.keys(p).length === 1)
  )
    return content.map((p) => (p as { text: string }).text).join("");
  return null;
}

/** The project temp directory named by `transcript_path`, when it lies inside `tempRoot`. */
export function projectTempDir(transcript: unknown, tempRoot: string): string | null {
  if (typeof transcript !== "string" || transcript === "") return null;
  const chats = dirname(transcript);
  if (basename(chats) !== "chats") return null;
  const project = dirname(chats);
  const rel = relative(tempRoot, project);
  return rel !== "" && !rel.startsWith("..") && !rel.includes(sep) ? project : null;
}

/**
 * Writes `text` to `dir/name` whole (random O_EXCL|O_NOFOLLOW temp file, rename); false on any
 * failure, and when `dir` is not a real directory (a planted symlink is never written through).
 */
function writeWhole(dir: string, name: string, text: string): boolean {
  let tmp: string | undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) return false;
    tmp = join(dir, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
    const fd = openSync(
      tmp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, join(dir, name));
    return true;
  } catch {
    if (tmp)
      try {
        unlinkSync(tmp);
      } catch {
        // Never created.
      }
    return false;
  }
}

/** Decide what Gemini CLI's AfterTool hook prints for this stdin object. Never throws on odd input. */
export async function geminiAfterTool(
  event: unknown,
  ctx: HookContext,
  options: GeminiOptions,
): Promise<HookDecision> {
  const opened = openEvent(event, "AfterTool", ctx.settings);
  if ("pass" in opened) return opened;
  const { toolName, input } = opened;
  const raw = llmText(opened.event.tool_response);
  if (raw === null) return { pass: "unexpected_shape" };
  const project = projectTempDir(opened.event.transcript_path, options.tempRoot);
  if (project === null) return { pass: "no_project_temp_dir" };
  let hint: string | undefined;
  let source: "read" | "output" = "output";
  let producer = toolName;
  if (toolName === "run_shell_command") {
    const command = typeof input.command === "string" ? input.command : "";
    if (wantsRaw(command, ctx.settings)) return { pass: "raw_requested" };
    hint = hintForCommand(command);
    producer = `run_shell_command: ${command}`;
  } else if (toolName === "read_file") {
    const path =
      typeof input.absolute_path === "string"
        ? input.absolute_path
        : typeof input.file_path === "string"
          ? input.file_path
          : "";
    // The tail call reading our own stand-in.
    if (dirname(path) === join(project, STAND_INS)) return { pass: "own_stand_in" };
    hint = hintForPath(path) ?? "Read";
    source = "read";
    producer = `read_file: ${path}`;
  } else if (toolName === "search_file_content" || toolName === "grep_search") {
    hint = "grep";
  } else if (!toolName.startsWith("mcp_")) {
    return { pass: "unknown_tool" };
  }
  const wrapped = raw.startsWith(OPEN) && raw.endsWith(CLOSE);
  const text = wrapped ? raw.slice(OPEN.length, -CLOSE.length) : raw;
  const r = await shrink(
    { text, ...(hint ? { hint } : {}), producer, source, budget: ctx.settings.budgetTokens },
    ctx,
  );
  if ("pass" in r) return r;
  // A stand-in is its header line, then the body: the header stays out, the body goes back in
  // the wrapper it came in.
  const cut = r.text.indexOf("\n");
  const header = cut >= 0 ? r.text.slice(0, cut) : r.text;
  const body = cut >= 0 ? r.text.slice(cut + 1) : "";
  const standIn = wrapped ? `${header}\n${OPEN}${body.replace(/\n$/, "")}${CLOSE}\n` : `${r.text}\n`;
  const dir = join(project, STAND_INS);
  const name = `${r.handle}.txt`;
  if (!writeWhole(dir, name, standIn)) return { pass: "stand_in_unwritable" };
  if (ctx.expired()) return { pass: "deadline" };
  return {
    output: {
      hookSpecificOutput: {
        hookEventName: "AfterTool",
        tailToolCallRequest: { name: "read_file", args: { file_path: join(dir, name) } },
      },
    },
    handles: [r.handle],
  };
}
