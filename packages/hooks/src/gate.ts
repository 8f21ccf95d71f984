// The hook's first look at an event: is there anything to do? Contract: string and size checks
// only, from the event text and the settings; it imports nothing heavy (no engine, tokenizer,
// keep or store: `@caveman/hooks/gate` is its own entry) and never throws. `{act: false}` is given
// only where the full path would pass too, with the reason it would give; anything it is unsure
// of acts, and the full path decides. Sizes are characters against the token floor (a token is
// at least one character, as `shrink` decides) and bytes against `maxInputBytes`; exact token
// counts are left to what is compressed. Events are one table: a host event we do not handle
// passes as `wrong_event` at once, and handling one is a row.
import { isObj, mcpTexts, type Obj } from "./event.js";
import { toolRefusal, wantsRaw } from "./policy.js";
import type { HookSettings } from "./settings.js";
import { wrapRefusal } from "./wrap.js";

export type GateVerdict = { act: false; reason: string } | { act: true };

/** The texts an event's tool output would be compressed from, or the pass reason. */
type Outputs = { texts: string[] } | { pass: string } | "act";

const str = (v: unknown): v is string => typeof v === "string";

function claudeOutputs(toolName: string, input: Obj, response: unknown, settings: HookSettings): Outputs {
  if (toolName.startsWith("mcp__")) {
    const blocks = mcpTexts(response);
    return blocks ? { texts: blocks.texts } : { pass: "non_text_result" };
  }
  if (!isObj(response)) return { pass: "unexpected_shape" };
  switch (toolName) {
    case "Bash":
      if (str(input.command) && wantsRaw(input.command, settings)) return { pass: "raw_requested" };
      // A persisted output is larger on disk than here: the full path reads it.
      if (response.persistedOutputPath !== undefined || !str(response.stdout)) return "act";
      return { texts: [response.stdout, str(response.stderr) ? response.stderr : ""] };
    case "Read":
      return isObj(response.file) && str(response.file.content) ? { texts: [response.file.content] } : "act";
    case "Grep":
      if (response.mode !== "content" || !str(response.content)) return { pass: "not_content_mode" };
      return { texts: [response.content] };
    default:
      return { pass: "unknown_tool" };
  }
}

const GEMINI_TOOLS = new Set(["run_shell_command", "read_file", "search_file_content", "grep_search"]);

function geminiOutputs(toolName: string, input: Obj, response: unknown, settings: HookSettings): Outputs {
  if (!GEMINI_TOOLS.has(toolName) && !toolName.startsWith("mcp_")) return { pass: "unknown_tool" };
  if (toolName === "run_shell_command" && str(input.command) && wantsRaw(input.command, settings))
    return { pass: "raw_requested" };
  const content = isObj(response) ? response.llmContent : undefined;
  if (str(content)) return { texts: [content] };
  // Parts and blocks come in several forms; the full path knows them all.
  return "act";
}

/** Claude Code's PreToolUse on Bash: the wrap decision's own checks (wrap.ts), all string checks. */
function preToolUse(
  toolName: string,
  input: Obj,
  _response: unknown,
  settings: HookSettings,
  event: Obj,
): Outputs {
  if (toolName !== "Bash") return { pass: "not_bash" };
  if (settings.wrapCommands === "off") return { pass: "wrap_off" };
  if (settings.wrapCommands === "bypass" && event.permission_mode !== "bypassPermissions")
    return { pass: "permission_mode" };
  const refusal = wrapRefusal(str(input.command) ? input.command : "", input, settings);
  return refusal ? { pass: refusal } : "act";
}

/**
 * The host events the hooks handle, by `hook_event_name`: where the tool's output lies. An event
 * missing here passes (`wrong_event`); a new event the hooks handle gets a row (`() => "act"`
 * when its own checks live in the full path).
 */
type Row = (toolName: string, input: Obj, response: unknown, settings: HookSettings, event: Obj) => Outputs;
const EVENTS: Readonly<Record<string, Row>> = {
  PostToolUse: claudeOutputs,
  PreToolUse: preToolUse,
  AfterTool: geminiOutputs,
};

/** Whether any text is worth compressing; else the reason of the largest, as `shrink` gives it. */
function sized(texts: readonly string[], settings: HookSettings): GateVerdict {
  let largest = -1;
  let reason = "below_floor";
  for (const text of texts) {
    if (text === "") continue;
    const tooLarge = Buffer.byteLength(text, "utf8") > settings.maxInputBytes;
    if (!tooLarge && text.length >= settings.floorTokens) return { act: true };
    if (text.length > largest) [largest, reason] = [text.length, tooLarge ? "too_large" : "below_floor"];
  }
  // No text at all (every one empty): the full path reports that the output did not shrink.
  return { act: false, reason: largest < 0 ? "not_smaller" : reason };
}

/** Whether this hook event may have something to compress: cheap checks, before anything loads. */
export function gate(eventText: string, settings: HookSettings): GateVerdict {
  try {
    if (!settings.enabled) return { act: false, reason: "disabled" };
    let event: unknown;
    try {
      event = JSON.parse(eventText);
    } catch {
      return { act: false, reason: "input_invalid" };
    }
    if (!isObj(event) || !str(event.tool_name)) return { act: false, reason: "input_invalid" };
    const name = event.hook_event_name;
    // Without an event name the host is not known here; the full path checks as today.
    if (name === undefined) return { act: true };
    const outputs = str(name) && Object.hasOwn(EVENTS, name) ? EVENTS[name] : undefined;
    if (!outputs) return { act: false, reason: "wrong_event" };
    const refusal = toolRefusal(event.tool_name, settings);
    if (refusal) return { act: false, reason: refusal };
    const input = isObj(event.tool_input) ? event.tool_input : {};
    const found = outputs(event.tool_name, input, event.tool_response, settings, event);
    if (found === "act") return { act: true };
    if ("pass" in found) return { act: false, reason: found.pass };
    return sized(found.texts, settings);
  } catch {
    // A check that fails is no reason to pass: the full path decides (and fails open).
    return { act: true };
  }
}
