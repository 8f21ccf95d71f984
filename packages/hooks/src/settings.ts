// Hook settings: what is worth compressing and what is never touched. Contract: `parseHookSettings`
// validates a whole settings object (from the config file) against the defaults and throws
// `hook_settings_invalid` naming the key at fault; it never reads files or the environment (the
// app does, in one place). Unknown keys are an error, so a typo cannot silently disable a rule.
import { HookError } from "./errors.js";

export interface HookSettings {
  /** Master switch; false makes every hook call pass through (the per-session off switch sets it). */
  enabled: boolean;
  /** Outputs with fewer o200k tokens than this pass through. */
  floorTokens: number;
  /** Least share of tokens a compression must save to be used (0..1). */
  minGain: number;
  /** Tool-name patterns (`*` wildcard) to consider; empty = every tool. */
  allow: string[];
  /** Tool-name patterns never touched; wins over `allow`. */
  deny: string[];
  /** Text in a Bash command that asks for raw output for that one call. */
  rawMarkers: string[];
  /** Outputs larger than this (bytes) pass through: compression of them would not fit the budget. */
  maxInputBytes: number;
  /**
   * Most o200k tokens a replacement may cost where the host would show the output whole (where it
   * would show a preview instead, the preview's cost is the limit: budget.ts).
   */
  budgetTokens: number;
  /**
   * When the PreToolUse hook puts Bash commands under `caveman-mcp run`: "bypass" only in
   * Claude Code's bypassPermissions mode (elsewhere the host matches the user's allow rules against
   * the rewritten command, so an allowed `npm test` would ask again), "always", or "off".
   */
  wrapCommands: "bypass" | "always" | "off";
  /** Time budget of one hook call in ms, from process start; past it the original passes. */
  budgetMs: number;
  /** Longest pause while the host writes the hook's stdin; a longer one is a stall. */
  stdinTimeoutMs: number;
}

export const DEFAULT_HOOK_SETTINGS: Readonly<HookSettings> = Object.freeze({
  enabled: true,
  floorTokens: 500,
  minGain: 0.2,
  allow: [],
  deny: [],
  rawMarkers: ["caveman:raw", "CAVEMAN_RAW=1"],
  maxInputBytes: 8 * 1024 * 1024,
  // Measured on the engine corpus' 27 compressible items of inline size (2,000-30,000 characters):
  // unbudgeted stand-ins cost a median of 535 and a p90 of 2,405 tokens and show 48 of their 58
  // gold facts; a budget of 700 shows 37, 1,000 shows 41, 1,500 and 2,000 both show 45.
  budgetTokens: 1500,
  wrapCommands: "bypass",
  // `install` gives the hook 30 s (Claude Code's and Gemini CLI's default is 60 s). Loading the
  // bundle (the o200k tokenizer's tables above all) takes ~0.4 s on an idle machine and several
  // times that on a busy one; 3 s leaves room for that and for compressing an 8 MiB output.
  budgetMs: 3000,
  // A host writes the whole event at once; a second without data is a stall.
  stdinTimeoutMs: 1000,
});

/** The config file's keys (snake_case, as written by people) and the setting each one sets. */
const KEYS = {
  enabled: "enabled",
  floor_tokens: "floorTokens",
  min_gain: "minGain",
  allow: "allow",
  deny: "deny",
  raw_markers: "rawMarkers",
  max_input_bytes: "maxInputBytes",
  budget_tokens: "budgetTokens",
  wrap_commands: "wrapCommands",
  budget_ms: "budgetMs",
  stdin_timeout_ms: "stdinTimeoutMs",
} as const satisfies Record<string, keyof HookSettings>;

function fail(message: string): never {
  throw new HookError("hook_settings_invalid", message);
}

function wholeNumber(key: string, v: unknown, min: number, max: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
    fail(`"${key}" must be a whole number from ${min} to ${max}`);
  return v;
}

function stringList(key: string, v: unknown): string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === "string" && s.trim() !== "" && s.length <= 200))
    fail(`"${key}" must be a list of non-empty strings`);
  return v.map((s: string) => s.trim());
}

/** Validate a settings object (parsed JSON) over `base`; throws `hook_settings_invalid`. */
export function parseHookSettings(
  value: unknown,
  base: Readonly<HookSettings> = DEFAULT_HOOK_SETTINGS,
): HookSettings {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    fail("the settings must be a JSON object");
  const out: HookSettings = {
    ...base,
    allow: [...base.allow],
    deny: [...base.deny],
    rawMarkers: [...base.rawMarkers],
  };
  for (const [key, v] of Object.entries(value)) {
    if (key === "$schema" || key === "//") continue;
    if (!(key in KEYS)) fail(`unknown key "${key}"; accepted: ${Object.keys(KEYS).join(", ")}`);
    switch (key as keyof typeof KEYS) {
      case "enabled":
        if (typeof v !== "boolean") fail('"enabled" must be true or false');
        out.enabled = v;
        break;
      case "floor_tokens":
        out.floorTokens = wholeNumber(key, v, 0, 10_000_000);
        break;
      case "min_gain":
        if (typeof v !== "number" || !(v >= 0 && v < 1))
          fail('"min_gain" must be a number from 0 to below 1');
        out.minGain = v;
        break;
      case "allow":
        out.allow = stringList(key, v);
        break;
      case "deny":
        out.deny = stringList(key, v);
        break;
      case "raw_markers":
        out.rawMarkers = stringList(key, v);
        break;
      case "max_input_bytes":
        out.maxInputBytes = wholeNumber(key, v, 1024, 1024 * 1024 * 1024);
        break;
      case "budget_tokens":
        out.budgetTokens = wholeNumber(key, v, 100, 1_000_000);
        break;
      case "wrap_commands":
        if (v !== "bypass" && v !== "always" && v !== "off")
          fail('"wrap_commands" must be "bypass", "always" or "off"');
        out.wrapCommands = v;
        break;
      case "budget_ms":
        out.budgetMs = wholeNumber(key, v, 50, 600_000);
        break;
      case "stdin_timeout_ms":
        out.stdinTimeoutMs = wholeNumber(key, v, 10, 600_000);
        break;
    }
  }
  return out;
}
