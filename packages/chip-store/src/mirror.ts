// What a chip store holds, in memory and in its directory, kept in line with each other.
// Contract: the queue is the truth for this process; `sync` makes it agree with the directory
// (chips other processes wrote are learned, chips whose files are gone are forgotten, expired
// chips are removed, capacity is enforced over the whole directory). A directory that fails is
// not fatal: persistence is turned off with the reason, and chips stay in memory. Removal either
// removes a chip's file or keeps the chip (a file left behind would bring it back on the next
// sync) and raises chip_io_failed. A corrupt file is skipped and reported, never deleted.
import { unlinkSync } from "node:fs";
import { join } from "node:path";
import {
  chipFileExists,
  chipFileName,
  errnoCode,
  idFromFileName,
  listChipFiles,
  readChipFile,
  unlinkQuiet,
  writeExclusive,
} from "./disk.js";
import { ChipStoreError } from "./errors.js";
import { newChipId, type RandomBytes } from "./ids.js";
import { ChipQueue, type Entry } from "./queue.js";
import { type Chip, fromDiskJson, metaOf, toDiskJson } from "./record.js";
import { isExpired, type ScanContext, scanNewChips } from "./scan.js";

interface SyncReport {
  skipped: { file: string; reason: string }[];
  expired: string[];
  evicted: string[];
}

interface MirrorOptions {
  dir: string | null;
  capacity: number;
  clock: () => number;
  random: RandomBytes;
  maxFileBytes: number;
  /** The chip to keep in memory for an entry (null: its payload is re-read from disk). */
  keepPayload: (chip: Chip) => Chip | null;
}

export class ChipMirror {
  readonly queue = new ChipQueue();
  readonly dir: string | null;
  /** corrupt file name -> mtime when seen, so each corrupt file is reported once per change */
  readonly #corruptSeen = new Map<string, number>();
  readonly #o: MirrorOptions;
  #persistOk: boolean;
  #persistProblem: string | null = null;

  constructor(options: MirrorOptions) {
    this.#o = options;
    this.dir = options.dir;
    this.#persistOk = options.dir !== null;
  }

  /** The directory, while chips are written to it; null when chips are kept in memory only. */
  get liveDir(): string | null {
    return this.#persistOk ? this.dir : null;
  }

  /** Why chips are no longer written to the directory, if they are not. */
  get persistProblem(): string | null {
    return this.#persistProblem;
  }

  disablePersistence(why: string): void {
    this.#persistOk = false;
    this.#persistProblem = why;
  }

  /**
   * Brings memory in line with the directory: learns chips other processes wrote, forgets chips
   * whose files are gone, removes expired chips, and enforces capacity.
   */
  sync(): SyncReport {
    const skipped: { file: string; reason: string }[] = [];
    const expired: string[] = [];
    const evictedEarly: string[] = [];
    const now = this.#o.clock();
    let names: string[] = [];
    if (this.liveDir) {
      try {
        names = listChipFiles(this.liveDir);
      } catch (e) {
        this.disablePersistence(`chip directory ${this.dir} became unreadable: ${(e as Error).message}`);
      }
      const present = new Set(names);
      const gone = this.queue.entries.filter((e) => e.onDisk && !present.has(chipFileName(e.id)));
      if (gone.length > 0) this.dropMany(gone, false);
    }
    // Expired chips go before capacity is enforced, so they never push a live chip out.
    const dead = this.queue.entries.filter((e) => isExpired(e.meta, now));
    if (dead.length > 0) this.dropMany(dead, true);
    for (const e of dead) expired.push(e.id);
    const dir = this.liveDir;
    if (dir) {
      // New chips are gathered and merged in one sort, and trimmed to capacity every so often:
      // one-by-one sorted inserts made opening a directory of 100k chips quadratic, and holding
      // every payload until the end let a big directory exhaust memory.
      const fresh: Entry[] = [];
      const ctx: ScanContext = {
        dir,
        now,
        maxFileBytes: this.#o.maxFileBytes,
        corruptSeen: this.#corruptSeen,
        known: (id) => this.queue.has(id),
        keepPayload: this.#o.keepPayload,
      };
      for (const out of scanNewChips(ctx, names)) {
        if (out.type === "expired") expired.push(out.id);
        else if (out.type === "skipped") skipped.push({ file: out.file, reason: out.reason });
        else {
          if (fresh.length >= 2 * this.#o.capacity + 64) evictedEarly.push(...this.#merge(fresh.splice(0)));
          fresh.push(out.entry);
          this.queue.register(out.entry);
        }
      }
      evictedEarly.push(...this.#merge(fresh));
    }
    return { skipped, expired, evicted: [...evictedEarly, ...this.enforceCapacity()] };
  }

  /**
   * A chip that is not in memory (another process's, or from before a restart), read from its file
   * and remembered; null when there is none or it has expired (its file is then removed). Throws
   * chip_corrupt for a file that is not a chip (left in place), chip_not_found if it cannot be read.
   */
  readFile(id: string, known: Entry | undefined, now: number): Chip | null {
    const dir = this.liveDir;
    if (!dir) return null;
    let text: string;
    try {
      text = readChipFile(dir, chipFileName(id), this.#o.maxFileBytes);
    } catch (e) {
      if (known) this.drop(known, false);
      if (errnoCode(e) === "ENOENT") return null;
      if (errnoCode(e) === "ENOTCHIP") {
        throw new ChipStoreError("chip_corrupt", `${(e as Error).message}; it was left in place`, {
          cause: e,
        });
      }
      throw new ChipStoreError("chip_not_found", `chip ${id} could not be read (${(e as Error).message})`, {
        cause: e,
      });
    }
    const { chip, order } = fromDiskJson(text, id, chipFileName(id));
    if (isExpired(chip, now)) {
      unlinkQuiet(join(dir, chipFileName(id)));
      if (known) this.drop(known, false);
      return null;
    }
    if (!known)
      this.queue.insert({ id, order, meta: metaOf(chip), chip: this.#o.keepPayload(chip), onDisk: true });
    return chip;
  }

  /** Picks a free id for `chip` and writes its file; returns whether the chip is on disk. */
  allocateAndWrite(chip: Chip, warnings: string[]): boolean {
    const random = this.#o.random;
    for (let attempt = 0; attempt < 10; attempt++) {
      const id = newChipId(random, attempt >= 5);
      if (this.queue.has(id)) continue;
      const dir = this.liveDir;
      if (!dir) {
        chip.id = id;
        if (this.#persistProblem) warnings.push(`chip ${id} kept in memory only: ${this.#persistProblem}`);
        return false;
      }
      if (chipFileExists(dir, id)) continue;
      chip.id = id;
      try {
        writeExclusive(dir, chipFileName(id), toDiskJson(chip), Buffer.from(random(8)).toString("hex"));
        return true;
      } catch (e) {
        if (errnoCode(e) === "EEXIST") continue;
        warnings.push(
          `chip ${id} kept in memory only: could not write it to ${dir} (${(e as Error).message})`,
        );
        return false;
      }
    }
    throw new ChipStoreError(
      "chip_invalid_option",
      "could not find a free chip id in 10 tries; is the random source broken?",
    );
  }

  /** Removes one chip's file and entry; false when there was neither. */
  remove(id: string): boolean {
    const known = this.queue.get(id);
    let removed = false;
    const dir = this.liveDir;
    if (dir) {
      try {
        unlinkSync(join(dir, chipFileName(id)));
        removed = true;
      } catch (e) {
        // A file that stays would be learned again by the next sync: the chip would come back.
        if (errnoCode(e) !== "ENOENT") {
          throw new ChipStoreError(
            "chip_io_failed",
            `chip ${id} could not be deleted from ${dir} (${(e as Error).message}); it is kept; fix the directory's permissions and retry`,
            { cause: e },
          );
        }
      }
    }
    if (known) this.drop(known, false);
    return removed || known !== undefined;
  }

  /** Removes every chip whose file can be removed; returns how many went. */
  removeAll(): number {
    const ids = new Set(this.queue.entries.filter((e) => !e.onDisk).map((e) => e.id));
    const kept: string[] = [];
    let failure: unknown;
    const dir = this.liveDir;
    if (dir) {
      for (const name of listChipFiles(dir)) {
        const id = idFromFileName(name) as string;
        try {
          unlinkSync(join(dir, name));
          ids.add(id);
        } catch (e) {
          if (errnoCode(e) === "ENOENT") continue;
          kept.push(id);
          failure = e;
        }
      }
    }
    const keep = new Set(kept);
    const dropped = this.queue.entries.filter((e) => !keep.has(e.id));
    for (const e of dropped) if (e.onDisk) ids.add(e.id);
    this.dropMany(dropped, false);
    if (kept.length > 0) {
      throw new ChipStoreError(
        "chip_io_failed",
        `${kept.length} chip file(s) in ${dir} could not be deleted (${(failure as Error).message}); those chips are kept; fix the directory's permissions and retry`,
        { cause: failure },
      );
    }
    return ids.size;
  }

  /** Evicts the oldest chips past capacity (files removed); returns their ids. */
  enforceCapacity(): string[] {
    const oldest = this.queue.overflow(this.#o.capacity);
    if (oldest.length === 0) return [];
    this.dropMany(oldest, true);
    return oldest.map((e) => e.id);
  }

  dropMany(victims: Entry[], removeFile: boolean): void {
    this.queue.removeMany(victims);
    for (const e of victims) {
      if (removeFile && e.onDisk && this.dir) unlinkQuiet(join(this.dir, chipFileName(e.id)));
    }
  }

  drop(entry: Entry, removeFile: boolean): void {
    this.queue.remove(entry);
    if (removeFile && entry.onDisk && this.dir) unlinkQuiet(join(this.dir, chipFileName(entry.id)));
  }

  /** Merges new entries (already registered) into the queue, then enforces capacity. */
  #merge(fresh: Entry[]): string[] {
    if (fresh.length === 0) return [];
    this.queue.merge(fresh);
    return this.enforceCapacity();
  }
}
