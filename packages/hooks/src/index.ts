// Everything exported here is the public API of @caveman/hooks.
export { claudeCodePostToolUse } from "./claudeCode.js";
export { type CommandOutput, keepCommandOutput } from "./command.js";
export type { HookErrorCode } from "./errors.js";
export { HookError, isHookError } from "./errors.js";
export type { HookDecision } from "./event.js";
export type { GeminiOptions } from "./gemini.js";
export { geminiAfterTool } from "./gemini.js";
export { type ConfinedRead, type ConfinedRefusal, readConfined, readPersisted } from "./persisted.js";
export { hintForCommand, hintForPath, kindAllowed, toolRefusal, wantsRaw } from "./policy.js";
export type { HookHost, HookRun } from "./run.js";
export { runHook } from "./run.js";
export type { HookSettings } from "./settings.js";
export { DEFAULT_HOOK_SETTINGS, parseHookSettings } from "./settings.js";
export { claudeCodeShapeProblem } from "./shapes.js";
export type { HookContext, Shrunk } from "./shrink.js";
export { claudeCodePreToolUse, shellWord, type WrapOptions, wrapRefusal } from "./wrap.js";
