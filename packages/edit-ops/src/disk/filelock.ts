// A lock between processes on one file, so two servers (or any two programs using this package)
// never both read the same version of a file and write over each other's edit. Contract:
// - The lock is a file created whole (temp file + link) beside the edited file, `.<name>.caveman-lock`, holding
//   its owner (pid, host, pid namespace, process start time, thread). It lives in the same
//   directory because that is the one place every process that can write the file can also see,
//   whatever its configuration; it exists only while an edit is being written (milliseconds) —
//   the same kind of transient as the atomic write's temp file — and is unlinked on release.
// - A crashed holder never wedges the file: a lock whose owner is provably gone (same host and
//   pid namespace, pid not running or reused) is broken at once; a lock of another host or
//   namespace after FOREIGN_STALE_MS; an empty one (holder died between create and write) after
//   EMPTY_STALE_MS. A live holder is waited for, with backoff, at most `timeoutMs`; then `busy`.
// - Breaking is rename-then-check (the renamed file must be the one judged stale), and every
//   holder re-checks that the lock file is still its own just before its rename (`verify`), so
//   a lock broken by mistake costs a `conflict`, never a lost update.
// Written here rather than taken from proper-lockfile: that library judges staleness only by
// age (a crashed holder blocks the file for its whole stale period, 10 s by default), keeps a
// timer refreshing the lock's mtime while held, and offers no identity check before our rename.
// The small metadata calls (link, lstat, rename, unlink, a write of ~150 bytes) are synchronous:
// each takes microseconds, while a trip through the thread pool costs a millisecond or more on
// a loaded machine, and an edit makes a dozen of them. Waiting for another holder stays async.

import { constants, linkSync, lstatSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { threadId } from "node:worker_threads";
import { EditError, fsError } from "../errors.js";
import { quietUnlink, tempName, tempPrefix } from "./atomic.js";
import type { DirRef } from "./confine.js";
import { type Owner, ownerState, whoAmI } from "./liveness.js";

const LOCK_SUFFIX = "caveman-lock";
const FOREIGN_STALE_MS = 60_000;
const EMPTY_STALE_MS = 5_000;
const MAX_LOCK_BYTES = 1024;

export function lockName(name: string): string {
  return `${tempPrefix(name)}${LOCK_SUFFIX}`;
}

export interface FileLock {
  /** Throws `conflict` unless the lock file is still this holder's. */
  verify(): Promise<void>;
  /** Remove the lock if it is still ours. Never throws. */
  release(): Promise<void>;
}

export interface LockOptions {
  /** Longest wait for another holder, in milliseconds. */
  timeoutMs: number;
  /** The caller's name for the file, for messages. */
  shown: string;
  randomHex: () => string;
}

interface Identity {
  dev: number;
  ino: number;
}

interface Holder extends Owner {
  tid: number;
  at: number;
}

type Verdict =
  | { kind: "gone" }
  | { kind: "held"; owner: Holder | null }
  | { kind: "stale"; id: Identity }
  // A file with content that is not a lock of ours (a user's file that happens to have the name):
  // never removed, whatever its age.
  | { kind: "alien" };

export async function lockFile(dir: DirRef, name: string, opts: LockOptions): Promise<FileLock> {
  const lname = lockName(name);
  const path = dir.entry(lname);
  // Real time, not the editor's injectable clock: a frozen test clock must not wait forever.
  const deadline = performance.now() + opts.timeoutMs;
  let wait = 1;
  for (;;) {
    const id = await tryCreate(dir, lname, opts);
    if (id) return held(dir, lname, id, opts);
    const verdict = await inspect(path);
    if (verdict.kind === "gone") continue;
    if (verdict.kind === "alien") throw alien(opts.shown, lname);
    if (verdict.kind === "stale") {
      await breakLock(dir, lname, verdict.id, opts.randomHex);
      continue;
    }
    if (performance.now() >= deadline) throw busy(opts.shown, verdict.owner, opts.timeoutMs);
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 25);
  }
}

/**
 * Create the lock whole: its content goes into a temp file first, which is then hard-linked to
 * the lock name (link fails if the lock exists). A process killed at any point leaves either no
 * lock or a complete one, never an empty one that would have to be waited out. File systems
 * without hard links fall back to O_EXCL and write (an empty lock there is judged by its age).
 */
async function tryCreate(dir: DirRef, lname: string, opts: LockOptions): Promise<Identity | null> {
  const path = dir.entry(lname);
  const tmp = dir.entry(tempName(lname, opts.randomHex()));
  const me: Holder = { ...whoAmI(), tid: threadId, at: Date.now() };
  try {
    writeFileSync(tmp, JSON.stringify(me), { flag: "wx", mode: 0o600 });
  } catch (err) {
    throw fsError(err, opts.shown, "lock");
  }
  try {
    linkSync(tmp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return null;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS" && code !== "EXDEV") {
      throw fsError(err, opts.shown, "lock");
    }
    return createExclusive(path, me, opts.shown);
  } finally {
    quietUnlink(tmp);
  }
  const st = lstatSync(path);
  return { dev: st.dev, ino: st.ino };
}

async function createExclusive(path: string, me: Holder, shown: string): Promise<Identity | null> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, flags, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw fsError(err, shown, "lock");
  }
  try {
    await handle.writeFile(JSON.stringify(me));
    const st = await handle.stat();
    return { dev: st.dev, ino: st.ino };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function held(dir: DirRef, lname: string, id: Identity, opts: LockOptions): FileLock {
  const path = dir.entry(lname);
  const shown = opts.shown;
  const mine = () => {
    try {
      const st = lstatSync(path);
      return st.dev === id.dev && st.ino === id.ino;
    } catch {
      return false;
    }
  };
  return {
    async verify() {
      if (mine()) return;
      throw new EditError(
        "conflict",
        `${shown}: another process took over this file's edit lock while this edit ran; nothing was written — read it again and retry`,
        { path: shown },
      );
    },
    async release() {
      // Moved aside and checked, like a stale lock: a lock someone else holds by now stays.
      await breakLock(dir, lname, id, opts.randomHex);
    },
  };
}

async function inspect(path: string): Promise<Verdict> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "gone" };
    // We never create a symlink there: one planted at the lock name is never followed, never
    // removed, and waiting will not make it go away.
    if (code === "ELOOP") return { kind: "alien" };
    // Unreadable (another user's lock, mode 0600): it may be live; wait it out.
    return { kind: "held", owner: null };
  }
  try {
    const st = await handle.stat();
    const id = { dev: st.dev, ino: st.ino };
    const buf = Buffer.alloc(MAX_LOCK_BYTES);
    const { bytesRead } = st.isFile() ? await handle.read(buf, 0, MAX_LOCK_BYTES, 0) : { bytesRead: 0 };
    const owner = parseHolder(buf.subarray(0, bytesRead).toString("utf8"));
    if (!owner) {
      const old = Date.now() - st.mtimeMs > EMPTY_STALE_MS;
      // Only an empty file can be a lock whose holder died before writing it (O_EXCL fallback);
      // anything else that does not parse is someone's data once it has stopped changing.
      if (!old) return { kind: "held", owner };
      return st.isFile() && st.size === 0 ? { kind: "stale", id } : { kind: "alien" };
    }
    // A lock of this very process is live too: two long names can share one lock name (the
    // name is shortened to fit), and their edits run concurrently here.
    const state = ownerState(owner);
    if (state === "dead") return { kind: "stale", id };
    if (state === "unknown" && Date.now() - owner.at > FOREIGN_STALE_MS) return { kind: "stale", id };
    return { kind: "held", owner };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function parseHolder(text: string): Holder | null {
  try {
    const v = JSON.parse(text) as Partial<Holder>;
    if (typeof v.pid !== "number" || typeof v.host !== "string" || typeof v.at !== "number") return null;
    return {
      pid: v.pid,
      host: v.host,
      ns: typeof v.ns === "string" ? v.ns : "",
      start: typeof v.start === "string" ? v.start : "",
      tid: typeof v.tid === "number" ? v.tid : 0,
      at: v.at,
    };
  } catch {
    return null;
  }
}

/**
 * Remove the locks in this directory whose owners are provably gone (a process killed while it
 * edited a file leaves one), so a crash does not leave a lock file in the tree until that very
 * file is edited again. Returns how many were removed.
 */
export async function removeDeadLocks(
  dir: DirRef,
  randomHex: () => string,
  /** The lock this caller holds: live by definition, so not inspected. */
  own?: string,
): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(dir.entry("."));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(".") || !name.endsWith(`.${LOCK_SUFFIX}`) || name === own) continue;
    const verdict = await inspect(dir.entry(name));
    if (verdict.kind !== "stale") continue;
    await breakLock(dir, name, verdict.id, randomHex);
    removed++;
  }
  return removed;
}

/** Move the stale lock aside; if what moved is not the file judged stale, put it back. */
async function breakLock(dir: DirRef, lname: string, id: Identity, randomHex: () => string): Promise<void> {
  const aside = dir.entry(tempName(lname, randomHex()));
  try {
    renameSync(dir.entry(lname), aside);
  } catch {
    return; // someone else moved or released it first
  }
  try {
    const st = lstatSync(aside);
    if (st.dev !== id.dev || st.ino !== id.ino) {
      // A fresh lock was taken between our look and our rename: hand it back. If a third process
      // locked meanwhile, the fresh holder's verify() fails and it writes nothing.
      try {
        linkSync(aside, dir.entry(lname));
      } catch {
        // It is gone or taken again: either way not ours to restore.
      }
    }
  } finally {
    quietUnlink(aside);
  }
}

function alien(shown: string, lname: string): EditError {
  return new EditError(
    "conflict",
    `${shown}: the file ${lname} beside it is not an edit lock, but this tool needs that name to lock the file; nothing was written — rename or remove ${lname} and retry`,
    { path: shown },
  );
}

function busy(shown: string, owner: Holder | null, timeoutMs: number): EditError {
  const who = owner
    ? `process ${owner.pid}${owner.host === whoAmI().host ? "" : ` on ${owner.host}`}`
    : "another process";
  return new EditError(
    "busy",
    `${shown} is being edited by ${who}; waited ${timeoutMs} ms for it to finish, nothing was written — retry shortly`,
    { path: shown },
  );
}
