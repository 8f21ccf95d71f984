// The undo journal: a bounded stack of edits per file, on disk under the caller's directory, so an
// undo works after a restart. An entry stores the edit as byte splices (where in the new bytes,
// the bytes removed there, the length inserted) plus the hashes before and after, so it is small
// even for a batch spread over a huge file and reconstructs the old bytes exactly. Layout:
//   <journalDir>/<sha256(realpath)[0:32]>/<seq:10 digits>.edit
// one file per entry: a JSON header line, then the removed bytes. It is written atomically (temp
// file, fsync, rename, directory fsync), so an entry is whole or absent, and it is made durable
// *before* the edited file is replaced (see commit.ts): a crash can leave an entry whose edit never
// landed, never an edit without its entry. Such an entry is recognised at undo time (the file
// still has the entry's `before_hash`) and skipped. Entries of older versions (`.json` + `.bin`)
// are still read. Directories are 0700 and files 0600: the bytes may be private source.

import { mkdirSync, readdirSync } from "node:fs";
import { open, readFile, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type ByteSplice, singleSplice } from "../doc/bytesplice.js";
import { sha256 } from "../doc/lines.js";
import { EditError } from "../errors.js";
import { writeAtomic } from "./atomic.js";
import { plainDir } from "./confine.js";

interface JournalEntry {
  v: 1;
  seq: number;
  path: string;
  op: string;
  at: string;
  /** null when the edit created the file (undo deletes it). */
  before_hash: string | null;
  after_hash: string;
  /** [offset in the new bytes, removed length, inserted length], in order; the removed bytes follow the header. */
  splices: Array<[number, number, number]>;
}

export interface JournalDeps {
  dir: string;
  depth: number;
  randomHex: () => string;
  now: () => number;
}

/** One edit as the journal records it. */
export interface EditRecord {
  real: string;
  path: string;
  op: string;
  /** The bytes before the edit; null when it creates the file. */
  before: Uint8Array | null;
  after: Uint8Array;
  beforeHash: string | null;
  afterHash: string;
  /** The byte splices from `before` to `after`, when known (else one is computed). */
  splices?: ByteSplice[] | undefined;
}

/** A durable entry whose edit is about to be written. */
export interface Recorded {
  /** The edit is on disk: drop entries past the depth. */
  landed(): Promise<void>;
  /** The edit was not written: remove the entry again. */
  discard(): Promise<void>;
}

const EXT = ".edit";
const ENTRY = /^(\d{10})\.(?:edit|json)$/;

function fileDir(deps: JournalDeps, real: string): string {
  return join(deps.dir, sha256(real).slice(0, 32));
}

function seqs(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const found = new Set<number>();
  for (const n of names) {
    const m = ENTRY.exec(n);
    if (m) found.add(Number(m[1]));
  }
  return [...found].sort((a, b) => a - b);
}

const name = (seq: number) => String(seq).padStart(10, "0");

/**
 * Write the entry for an edit durably (file and directory fsynced) and return what to do once
 * the edit itself has landed or failed. Call it before the edited file is replaced.
 */
export async function recordEdit(deps: JournalDeps, rec: EditRecord): Promise<Recorded> {
  const dir = fileDir(deps, rec.real);
  const made = mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A file's first entry lives in a directory just made: without the parents' fsync a crash could
  // lose the directory, and with it the entry that the rename below counts on.
  if (made !== undefined) await syncParents(dir, made);
  const old = rec.before ?? new Uint8Array(0);
  const spans = rec.splices ?? [singleSplice(old, rec.after)];
  const existing = seqs(dir);
  let seq = (existing[existing.length - 1] ?? 0) + 1;
  const entry: JournalEntry = {
    v: 1,
    seq,
    path: rec.path,
    op: rec.op,
    at: new Date(deps.now()).toISOString(),
    before_hash: rec.before ? (rec.beforeHash ?? sha256(rec.before)) : null,
    after_hash: rec.afterHash,
    splices: spans.map((p) => [p.at, p.oldEnd - p.oldStart, p.inserted]),
  };
  const removed = spans.map((p) => old.subarray(p.oldStart, p.oldEnd));
  // Placed with link(2), which refuses an existing name: another writer that read the same newest
  // seq (a creation in a new directory takes no file lock) keeps its entry, and this one moves up.
  const io = { previous: null, randomHex: deps.randomHex, now: deps.now, mode: 0o600, exclusive: true };
  for (let tries = 0; ; tries++) {
    entry.seq = seq;
    const bytes = Buffer.concat([Buffer.from(`${JSON.stringify(entry)}\n`), ...removed]);
    try {
      await writeAtomic(plainDir(dir), `${name(seq)}${EXT}`, bytes, io);
      break;
    } catch (err) {
      if (!(err instanceof EditError && err.code === "conflict") || tries >= 100) throw err;
      seq = Math.max(seq, ...seqs(dir)) + 1;
    }
  }
  return {
    landed: async () => {
      const excess = existing.length + 1 - deps.depth;
      for (let i = 0; i < excess; i++) await dropEntry(dir, existing[i]!);
    },
    discard: () => dropEntry(dir, seq),
  };
}

/** fsync the parent of every directory from `dir` up to `made` (the highest one mkdir created). */
async function syncParents(dir: string, made: string): Promise<void> {
  for (let d = dir; ; d = dirname(d)) {
    const handle = await open(dirname(d), "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (d === made || dirname(d) === d) return;
  }
}

async function dropEntry(dir: string, seq: number): Promise<void> {
  for (const ext of [EXT, ".json", ".bin"])
    await unlink(join(dir, `${name(seq)}${ext}`)).catch(() => undefined);
}

/** A damaged or hand-edited entry must become `io_error`, never a TypeError or a wrong restore. */
function wellFormed(entry: JournalEntry): boolean {
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return (
    entry !== null &&
    typeof entry === "object" &&
    typeof entry.after_hash === "string" &&
    (entry.before_hash === null || typeof entry.before_hash === "string") &&
    Array.isArray(entry.splices) &&
    entry.splices.every((p) => Array.isArray(p) && p.length === 3 && p.every(count))
  );
}

/** Header and removed bytes of one entry, either layout. */
async function readEntry(dir: string, seq: number): Promise<{ entry: JournalEntry; removed: Buffer }> {
  let raw: Buffer;
  try {
    raw = await readFile(join(dir, `${name(seq)}${EXT}`));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    const entry = JSON.parse(await readFile(join(dir, `${name(seq)}.json`), "utf8")) as JournalEntry;
    return { entry, removed: await readFile(join(dir, `${name(seq)}.bin`)) };
  }
  const nl = raw.indexOf(10);
  if (nl === -1) throw new SyntaxError("no header line");
  const entry = JSON.parse(raw.subarray(0, nl).toString("utf8")) as JournalEntry;
  return { entry, removed: raw.subarray(nl + 1) };
}

export interface PendingUndo {
  entry: JournalEntry;
  /** The file's current bytes: exactly what the entry's edit left. */
  current: Buffer;
  /** The bytes before the edit, or null when the edit created the file. */
  before: Buffer | null;
  /** Remove the entry once the undo is on disk. */
  commit: () => Promise<void>;
  /**
   * Newer entries passed over because the file holds their before-state. A crash before the
   * rename and a hand revert look the same here, so the caller says so rather than guessing.
   */
  skipped: string[];
}

/**
 * The newest entry for a file, checked against the current bytes; `conflict` if they differ.
 * An entry whose edit never landed (the file still holds its before-state, or is still absent
 * for a creation: the process died between journaling and replacing the file, or an undo died
 * before dropping the entry) is dropped and the one below it is used.
 */
export async function prepareUndo(
  deps: JournalDeps,
  real: string,
  path: string,
  current: Buffer | null,
  /** Remove entries whose edit never landed (false for a preview, which changes nothing). */
  dropSkipped = true,
): Promise<PendingUndo> {
  const dir = fileDir(deps, real);
  const all = seqs(dir);
  const hash = current ? sha256(current) : null;
  const skipped: string[] = [];
  for (;;) {
    const seq = all.pop();
    if (seq === undefined) {
      throw new EditError(
        "nothing_to_undo",
        `no recorded edit of ${path} to undo (the journal keeps the last ${deps.depth})`,
        { path },
      );
    }
    let entry: JournalEntry;
    let removed: Buffer;
    try {
      ({ entry, removed } = await readEntry(dir, seq));
    } catch (err) {
      throw new EditError(
        "io_error",
        `undo journal entry ${seq} of ${path} is unreadable`,
        { path },
        { cause: err },
      );
    }
    if (!wellFormed(entry)) {
      throw new EditError(
        "io_error",
        `undo journal entry ${seq} of ${path} is malformed; nothing was written`,
        { path },
      );
    }
    // The file is as before the entry's edit (for a creation: absent), not as after it.
    if (hash !== entry.after_hash && hash === entry.before_hash) {
      if (dropSkipped) await dropEntry(dir, seq);
      skipped.push(entry.op);
      continue;
    }
    if (current === null || hash !== entry.after_hash) {
      throw new EditError(
        "conflict",
        `${path} changed since edit #${seq} (${entry.op}) left it${current === null ? " (it no longer exists)" : ""}; ` +
          "undo would overwrite those changes, so nothing was written — edit the file directly instead",
        { path, ...(hash ? { hash } : {}) },
      );
    }
    return {
      entry,
      current,
      before: restore(entry, removed, current, seq, path),
      commit: () => dropEntry(dir, seq),
      skipped,
    };
  }
}

/** The bytes before the edit, rebuilt from the current bytes and the removed ones, hash-checked. */
function restore(
  entry: JournalEntry,
  removed: Buffer,
  current: Buffer,
  seq: number,
  path: string,
): Buffer | null {
  if (entry.before_hash === null) return null;
  const parts: Uint8Array[] = [];
  let pos = 0;
  let taken = 0;
  for (const [at, removedLength, inserted] of entry.splices) {
    parts.push(current.subarray(pos, at), removed.subarray(taken, taken + removedLength));
    taken += removedLength;
    pos = at + inserted;
  }
  parts.push(current.subarray(pos));
  const before = Buffer.concat(parts);
  if (taken !== removed.length || sha256(before) !== entry.before_hash) {
    throw new EditError("io_error", `undo journal entry ${seq} of ${path} is corrupt; nothing was written`, {
      path,
    });
  }
  return before;
}
