// Parsing setting values: one `parseSetting` reads any row of the settings table by its parser
// kind (settings.ts). Contract: a bad value throws ConfigError naming the flag or variable and what
// is accepted — a number names both (`--chip-max / CAVEMAN_CHIP_MAX`), anything else the one that
// gave it; nothing here reads the environment.
import { type Stats, statSync } from "node:fs";
import { delimiter, isAbsolute, normalize, resolve } from "node:path";
import { ConfigError } from "../errors.js";
import {
  MIB,
  type Parser,
  type SETTINGS,
  type SettingKey,
  setting,
  settingLabel,
  settingSource,
} from "./settings.js";

/** Largest size cap: a JS string (and so one JSON-RPC line) cannot be much longer anyway. */
const MAX_BYTES = 1024 * MIB;

type Row<K extends SettingKey> = Extract<(typeof SETTINGS)[number], { key: K }>;
interface KindValue {
  int: number;
  bytes: number;
  dirs: string[];
  path: string;
  file: string;
  list: string[];
  bool: boolean;
  url: string;
  text: string;
}
type ValueOf<P extends Parser> = P extends { kind: "list"; of: readonly (infer W)[] }
  ? W[]
  : KindValue[P["kind"]];
/** A setting's text: a path list may also come as the repeated flag's values. */
type RawValue<K extends SettingKey> = Row<K>["parse"] extends { kind: "dirs" }
  ? string | readonly string[] | undefined
  : string | undefined;
/**
 * What `parseSetting` returns: its kind's value, or undefined when no text was given and the row
 * has no default (a path list's is the working directory).
 */
export type SettingValue<K extends SettingKey, R = RawValue<K>> =
  | ValueOf<Row<K>["parse"]>
  | (undefined extends R
      ? Row<K> extends { default: unknown }
        ? never
        : Row<K>["parse"] extends { kind: "dirs" }
          ? never
          : undefined
      : never);

export interface ParseContext {
  readonly cwd: string;
  readonly home: string;
  /** Whether argv gave the value (then a path's or list's error names the flag). */
  readonly fromFlag?: boolean;
}

/** One setting's value from its flag's or variable's text (undefined: neither was given). */
export function parseSetting<K extends SettingKey, R extends RawValue<K>>(
  key: K,
  raw: R,
  where: ParseContext,
): SettingValue<K, R> {
  const s = setting(key);
  const source = settingSource(key, where.fromFlag ?? false);
  return parseAs(s.parse, raw, s.default, { ...where, key, source }) as SettingValue<K, R>;
}

function parseAs(
  p: Parser,
  raw: string | readonly string[] | undefined,
  dflt: number | readonly string[] | undefined,
  at: ParseContext & { key: SettingKey; source: string },
): unknown {
  if (p.kind === "dirs") {
    const given = (typeof raw === "string" ? raw.split(delimiter) : (raw ?? [])).filter(
      (r) => r.trim() !== "",
    );
    return (given.length ? given : [at.cwd]).map((r) =>
      checkDir(resolve(at.cwd, expandHome(r, at.home)), at.source),
    );
  }
  if (raw === undefined) return Array.isArray(dflt) ? [...dflt] : dflt;
  if (typeof raw !== "string") throw new Error(`setting ${at.key} is not a path list`);
  switch (p.kind) {
    case "int":
      return positiveInt(raw, settingLabel(at.key), p.max);
    case "bytes":
      return byteSize(raw, settingLabel(at.key));
    case "path":
      return p.variable === "absolute" && !at.fromFlag
        ? absolutePath(raw, at.home, at.source)
        : resolve(at.cwd, expandHome(raw, at.home));
    case "file":
      return existingFile(raw, at.source, p.what);
    case "list":
      return wordList(raw, at.source, p.of, p.noun);
    case "bool": {
      const word = raw.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      throw new ConfigError(p.invalid ? p.invalid(raw) : `${at.source}: "${raw}" is not on or off`);
    }
    case "url":
      return raw.trim();
    case "text":
      return p.trim ? raw.trim() : raw;
  }
}

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

/** `~` and `~/…` against the home directory; anything else unchanged. */
export function expandHome(p: string, home: string): string {
  return p === "~" ? home : p.startsWith("~/") ? `${home}/${p.slice(2)}` : p;
}

/** A variable's path, `~` expanded: it must be absolute (a variable has no working directory to be relative to). */
export function absolutePath(raw: string, home: string, name: string): string {
  const expanded = expandHome(raw, home);
  if (!isAbsolute(expanded)) throw new ConfigError(`${name}=${JSON.stringify(raw)} must be an absolute path`);
  return normalize(expanded);
}

/** The file or directory at `path`, or ConfigError naming `source` when nothing is there. */
function statOrFail(path: string, source: string): Stats {
  try {
    return statSync(path);
  } catch (err) {
    throw new ConfigError(`${source}: ${path} does not exist`, { cause: err });
  }
}

function checkDir(path: string, source: string): string {
  if (!statOrFail(path, source).isDirectory()) throw new ConfigError(`${source}: ${path} is not a directory`);
  if (!isAbsolute(path)) throw new ConfigError(`${source}: ${path} must be absolute`);
  return path;
}

/** An existing absolute file (`what` names its kind in the message, e.g. "a .node file"). */
function existingFile(raw: string, source: string, what: string): string {
  if (!isAbsolute(raw)) throw new ConfigError(`${source}: "${raw}" must be an absolute path to ${what}`);
  if (!statOrFail(raw, source).isFile()) throw new ConfigError(`${source}: ${raw} is not a file`);
  return raw;
}

function positiveInt(raw: string, source: string, max = Number.MAX_SAFE_INTEGER): number {
  const t = raw.trim();
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(Number(t)) || Number(t) < 1) {
    throw new ConfigError(`${source}: "${raw}" is not a positive whole number`);
  }
  if (Number(t) > max) throw new ConfigError(`${source}: ${t} is over the maximum of ${max}`);
  return Number(t);
}

function byteSize(raw: string, source: string): number {
  const m = /^(\d+)\s*(k|kib|m|mib|g|gib)?$/i.exec(raw.trim());
  const unit = { k: 1024, kib: 1024, m: MIB, mib: MIB, g: 1024 * MIB, gib: 1024 * MIB } as const;
  const n = m ? Number(m[1]) * (m[2] ? unit[m[2].toLowerCase() as keyof typeof unit] : 1) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1024 || n > MAX_BYTES) {
    throw new ConfigError(
      `${source}: "${raw}" is not a byte size from 1024 to ${MAX_BYTES} (e.g. 16777216 or 16MiB)`,
    );
  }
  return n;
}

function wordList(raw: string, source: string, words: readonly string[], noun: string): string[] {
  const out: string[] = [];
  for (const w of raw
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)) {
    if (!words.includes(w))
      throw new ConfigError(`${source}: unknown ${noun} "${w}" (use ${words.join(", ")})`);
    if (!out.includes(w)) out.push(w);
  }
  if (out.length === 0) throw new ConfigError(`${source}: name at least one ${noun} (${words.join(", ")})`);
  return out;
}
