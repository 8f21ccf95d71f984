// Parsing single setting values: whole numbers, byte sizes, directories, `~` paths. Contract: a
// bad value throws ConfigError naming the flag or variable and what is accepted; nothing here
// reads the environment.
import { type Stats, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { ConfigError } from "../errors.js";
import { MIB } from "./settings.js";

/** Largest size cap: a JS string (and so one JSON-RPC line) cannot be much longer anyway. */
const MAX_BYTES = 1024 * MIB;

/** `~` and `~/…` against the home directory; anything else unchanged. */
export function expandHome(p: string, home: string): string {
  return p === "~" ? home : p.startsWith("~/") ? `${home}/${p.slice(2)}` : p;
}

/** The file or directory at `path`, or ConfigError naming `source` when nothing is there. */
function statOrFail(path: string, source: string): Stats {
  try {
    return statSync(path);
  } catch (err) {
    throw new ConfigError(`${source}: ${path} does not exist`, { cause: err });
  }
}

export function checkDir(path: string, source: string): string {
  if (!statOrFail(path, source).isDirectory()) throw new ConfigError(`${source}: ${path} is not a directory`);
  if (!isAbsolute(path)) throw new ConfigError(`${source}: ${path} must be absolute`);
  return path;
}

/** An existing absolute file (`what` names its kind in the message, e.g. "a .node file"). */
export function existingFile(raw: string, source: string, what: string): string {
  if (!isAbsolute(raw)) throw new ConfigError(`${source}: "${raw}" must be an absolute path to ${what}`);
  if (!statOrFail(raw, source).isFile()) throw new ConfigError(`${source}: ${raw} is not a file`);
  return raw;
}

export function positiveInt(
  raw: string | undefined,
  dflt: number,
  source: string,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (raw === undefined) return dflt;
  const t = raw.trim();
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(Number(t)) || Number(t) < 1) {
    throw new ConfigError(`${source}: "${raw}" is not a positive whole number`);
  }
  if (Number(t) > max) throw new ConfigError(`${source}: ${t} is over the maximum of ${max}`);
  return Number(t);
}

export function byteSize(raw: string | undefined, dflt: number, source: string): number {
  if (raw === undefined) return dflt;
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
