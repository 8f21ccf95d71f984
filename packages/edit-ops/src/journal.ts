// The undo journal: a bounded stack of edits per file, on disk under the caller's directory, so an
// undo works after a restart. An entry stores the edit as byte splices (where in the new bytes,
// the bytes removed there, the length inserted) plus the hashes before and after, so it is small
// even for a batch spread over a huge file and reconstructs the old bytes exactly. Layout:
//   <journalDir>/<sha256(realpath)[0:32]>/<seq:10 digits>.json  (metadata; written last = commit)
//   <journalDir>/<sha256(realpath)[0:32]>/<seq:10 digits>.bin   (removed bytes)
// Directories are 0700 and files 0600: the bytes may be private source.

import { mkdir, readdir, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { writeAtomic } from "./atomic.js";
import { plainDir } from "./confine.js";
import { EditError } from "./errors.js";
import { type ByteSplice, sha256 } from "./text.js";

export interface JournalEntry {
  v: 1;
  seq: number;
  path: string;
  op: string;
  at: string;
  /** null when the edit created the file (undo deletes it). */
  before_hash: string | null;
  after_hash: string;
  /** [offset in the new bytes, removed length, inserted length], in order; .bin holds the removed bytes. */
  splices: Array<[number, number, number]>;
}

export interface JournalDeps {
  dir: string;
  depth: number;
  randomHex: () => string;
  now: () => number;
}

function fileDir(deps: JournalDeps, real: string): string {
  return join(deps.dir, sha256(real).slice(0, 32));
}

async function seqs(dir: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^\d{10}\.json$/.test(n))
    .map((n) => Number(n.slice(0, 10)))
    .sort((a, b) => a - b);
}

const name = (seq: number) => String(seq).padStart(10, "0");

/** Longest common prefix and suffix (not overlapping) of two byte strings. */
export function commonEnds(a: Uint8Array, b: Uint8Array): { prefix: number; suffix: number } {
  const max = Math.min(a.length, b.length);
  const CHUNK = 4096;
  let prefix = 0;
  // Whole chunks first (native compare), then byte by byte inside the first differing chunk.
  while (
    prefix + CHUNK <= max &&
    Buffer.compare(a.subarray(prefix, prefix + CHUNK), b.subarray(prefix, prefix + CHUNK)) === 0
  ) {
    prefix += CHUNK;
  }
  while (prefix < max && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  const room = max - prefix;
  while (
    suffix + CHUNK <= room &&
    Buffer.compare(
      a.subarray(a.length - suffix - CHUNK, a.length - suffix),
      b.subarray(b.length - suffix - CHUNK, b.length - suffix),
    ) === 0
  ) {
    suffix += CHUNK;
  }
  while (suffix < room && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}

function singleSplice(before: Uint8Array, after: Uint8Array): ByteSplice {
  const { prefix, suffix } = commonEnds(before, after);
  return {
    oldStart: prefix,
    oldEnd: before.length - suffix,
    at: prefix,
    inserted: after.length - prefix - suffix,
  };
}

export async function recordEdit(
  deps: JournalDeps,
  real: string,
  path: string,
  op: string,
  before: Uint8Array | null,
  after: Uint8Array,
  beforeHash: string | null = null,
  afterHash?: string,
  splices?: ByteSplice[],
): Promise<void> {
  const dir = fileDir(deps, real);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const old = before ?? new Uint8Array(0);
  const spans = splices ?? [singleSplice(old, after)];
  const removed = Buffer.concat(spans.map((p) => old.subarray(p.oldStart, p.oldEnd)));
  const existing = await seqs(dir);
  const seq = (existing[existing.length - 1] ?? 0) + 1;
  const entry: JournalEntry = {
    v: 1,
    seq,
    path,
    op,
    at: new Date(deps.now()).toISOString(),
    before_hash: before ? (beforeHash ?? sha256(before)) : null,
    after_hash: afterHash ?? sha256(after),
    splices: spans.map((p) => [p.at, p.oldEnd - p.oldStart, p.inserted]),
  };
  const io = { previous: null, randomHex: deps.randomHex, now: deps.now, mode: 0o600 };
  const at = plainDir(dir);
  await writeAtomic(at, `${name(seq)}.bin`, removed, io);
  await writeAtomic(at, `${name(seq)}.json`, Buffer.from(`${JSON.stringify(entry)}\n`), io);
  const excess = existing.length + 1 - deps.depth;
  for (let i = 0; i < excess; i++) await dropEntry(dir, existing[i]!);
}

async function dropEntry(dir: string, seq: number): Promise<void> {
  await unlink(join(dir, `${name(seq)}.json`)).catch(() => undefined);
  await unlink(join(dir, `${name(seq)}.bin`)).catch(() => undefined);
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

export interface PendingUndo {
  entry: JournalEntry;
  /** The bytes before the edit, or null when the edit created the file. */
  before: Buffer | null;
  /** Remove the entry once the undo is on disk. */
  commit: () => Promise<void>;
}

/** The newest entry for a file, checked against the current bytes; `conflict` if they differ. */
export async function prepareUndo(
  deps: JournalDeps,
  real: string,
  path: string,
  current: Buffer | null,
): Promise<PendingUndo> {
  const dir = fileDir(deps, real);
  const all = await seqs(dir);
  const seq = all[all.length - 1];
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
    entry = JSON.parse(await readFile(join(dir, `${name(seq)}.json`), "utf8")) as JournalEntry;
    removed = await readFile(join(dir, `${name(seq)}.bin`));
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
  const hash = current ? sha256(current) : null;
  if (current === null || hash !== entry.after_hash) {
    throw new EditError(
      "conflict",
      `${path} changed since edit #${seq} (${entry.op}) left it${current === null ? " (it no longer exists)" : ""}; ` +
        "undo would overwrite those changes, so nothing was written — edit the file directly instead",
      { path, ...(hash ? { hash } : {}) },
    );
  }
  let before: Buffer | null = null;
  if (entry.before_hash !== null) {
    const parts: Uint8Array[] = [];
    let pos = 0;
    let taken = 0;
    for (const [at, removedLength, inserted] of entry.splices) {
      parts.push(current.subarray(pos, at), removed.subarray(taken, taken + removedLength));
      taken += removedLength;
      pos = at + inserted;
    }
    parts.push(current.subarray(pos));
    before = Buffer.concat(parts);
    if (taken !== removed.length || sha256(before) !== entry.before_hash) {
      throw new EditError(
        "io_error",
        `undo journal entry ${seq} of ${path} is corrupt; nothing was written`,
        { path },
      );
    }
  }
  return { entry, before, commit: () => dropEntry(dir, seq) };
}
