// The savings journal on disk: `<dir>/savings.jsonl`, one line per entry. Contract: an append is
// one `write(2)` of one whole line on a descriptor opened O_APPEND (concurrent hook, proxy and
// server processes interleave whole lines; a line is far below the size Linux writes atomically
// to a regular file); the file is created 0600 and never followed through a symlink; it is
// bounded — past `maxBytes` it is renamed to `savings.1.jsonl` (the one older generation kept) and
// a fresh file starts, so the journal never holds more than about twice `maxBytes`. Appending never
// throws: the journal is a record of savings, and losing a line must not fail a compression.
// Reading skips lines that do not decode.
import { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import { decodeEntry, encodeEntry, type SavingsEntry } from "./entry.js";

export const JOURNAL_FILE = "savings.jsonl";
const OLDER_FILE = "savings.1.jsonl";
/** Default bound per generation: 2 MiB is about 10,000 entries. */
export const DEFAULT_JOURNAL_BYTES = 2 * 1024 * 1024;

export interface JournalOptions {
  /** The directory holding the journal (the caveman home, `~/.caveman`); it must exist. */
  dir: string;
  maxBytes?: number;
  /** Stamps entries that come without `at` (default Date.now). */
  clock?: () => number;
}

export interface SavingsJournal {
  readonly path: string;
  /** Appends one entry (stamped now unless it has `at`); false when it could not be written. */
  append(entry: Omit<SavingsEntry, "at"> & { at?: number }): boolean;
  /** Every readable entry, oldest first (the older generation, then the current file). */
  read(): SavingsEntry[];
}

const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

export function openJournal(options: JournalOptions): SavingsJournal {
  const path = join(options.dir, JOURNAL_FILE);
  const older = join(options.dir, OLDER_FILE);
  const maxBytes = options.maxBytes ?? DEFAULT_JOURNAL_BYTES;
  const clock = options.clock ?? Date.now;
  return {
    path,
    append(entry) {
      const line = encodeEntry({ ...entry, at: entry.at ?? clock() });
      if (line === null) return false;
      let fd: number | undefined;
      try {
        fd = openSync(path, APPEND_FLAGS, 0o600);
        const st = fstatSync(fd);
        if (!st.isFile()) return false;
        if (st.size >= maxBytes) {
          // Two writers may both rotate; the second rename then drops a generation of at most
          // `maxBytes`, which bounds the loss to history the bound would drop soon anyway.
          closeSync(fd);
          fd = undefined;
          renameSync(path, older);
          fd = openSync(path, APPEND_FLAGS, 0o600);
        }
        writeSync(fd, `${line}\n`);
        return true;
      } catch {
        return false;
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
    read() {
      const out: SavingsEntry[] = [];
      for (const file of [older, path]) {
        let text: string;
        try {
          const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
          try {
            if (!fstatSync(fd).isFile()) continue;
            text = readFileSync(fd, "utf8");
          } finally {
            closeSync(fd);
          }
        } catch {
          continue;
        }
        for (const line of text.split("\n")) {
          if (line === "") continue;
          const e = decodeEntry(line);
          if (e) out.push(e);
        }
      }
      return out;
    },
  };
}
