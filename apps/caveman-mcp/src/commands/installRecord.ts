// What install wrote into one settings file, so uninstall can remove exactly that. Contract: one
// small JSON file per settings file under `<caveman home>/installs/`, keyed by the file's path;
// for each entry we own, every value any install ever wrote there (an upgrade changes the value,
// and the older one must still be recognised as ours), and the containers install created (so an
// uninstall that empties them removes them too, and never a container the user had). Entries are
// compared by value, never by a name or a command pattern — a user's own entry that merely looks
// like ours is not ours. A record that cannot be read is treated as absent.
import { createHash } from "node:crypto";
import { readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { writeOwn } from "./settingsFile.js";

export interface RecordEntry {
  kind: "element" | "member";
  path: string[];
  /** Canonical JSON of every value written here, oldest first. */
  values: string[];
}

export interface InstallRecord {
  file: string;
  entries: RecordEntry[];
  /** Containers install created, as paths. */
  created: string[][];
  /** True when install created the file itself (uninstall then removes it once it is `{}`). */
  createdFile?: boolean;
}

/** Canonical JSON: keys sorted, so equal values compare equal as text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

const recordPath = (home: string, file: string) =>
  join(home, "installs", `${createHash("sha256").update(file).digest("hex").slice(0, 16)}.json`);

export function readRecord(home: string, file: string): InstallRecord | null {
  try {
    const r = JSON.parse(readFileSync(recordPath(home, file), "utf8")) as InstallRecord;
    return r.file === file && Array.isArray(r.entries) && Array.isArray(r.created) ? r : null;
  } catch {
    return null;
  }
}

export function writeRecord(home: string, record: InstallRecord): void {
  if (record.entries.length === 0) {
    try {
      unlinkSync(recordPath(home, record.file));
    } catch {
      // Already gone.
    }
    return;
  }
  writeOwn(recordPath(home, record.file), `${JSON.stringify(record, null, 2)}\n`);
}

export function entryOf(
  record: InstallRecord,
  kind: RecordEntry["kind"],
  path: readonly string[],
): RecordEntry {
  const key = path.join("\u0000");
  let e = record.entries.find((x) => x.kind === kind && x.path.join("\u0000") === key);
  if (!e) {
    e = { kind, path: [...path], values: [] };
    record.entries.push(e);
  }
  return e;
}

/** Whether `value` is one that install wrote at this entry. */
export const isOurs = (entry: RecordEntry | undefined, value: unknown) =>
  entry?.values.includes(canonical(value));
