// The chip store: a FIFO queue of chips, bounded by capacity and an optional TTL, mirrored to a
// directory so chips survive restarts and are shared between processes.
//
// Invariants:
// - A save never throws for an I/O failure: the chip stays in memory and the failure is reported
//   in `warnings`. It throws only for bad input (typed ChipStoreError).
// - Order is created_at, then id; within one store, saves are strictly ordered (see time.ts).
// - Capacity and TTL apply to the whole directory: before each save and list the store learns the
//   chips other processes wrote, and forgets chips whose files another process removed.
// - A corrupt file is skipped and reported, never deleted.

import { randomBytes } from "node:crypto";
import { unlinkSync } from "node:fs";
import { join } from "node:path";
import {
  chipFileExists,
  chipFileName,
  ensureChipDir,
  errnoCode,
  idFromFileName,
  listChipFiles,
  readChipFile,
  removeStaleTemps,
  unlinkQuiet,
  writeExclusive,
} from "./disk.js";
import { ChipStoreError } from "./errors.js";
import { pathMatches, textMatches } from "./filter.js";
import { isValidChipId, newChipId, type RandomBytes } from "./ids.js";
import {
  type ChipStoreOptions,
  type ListFilter,
  type LoadReport,
  positiveInt,
  type SaveContentInput,
  type SaveFailureInput,
  type SaveResult,
} from "./options.js";
import { ChipQueue, type Entry } from "./queue.js";
import {
  type Chip,
  type ChipKind,
  type ChipMeta,
  describePayload,
  fromDiskJson,
  metaOf,
  type Payload,
  toDiskJson,
} from "./record.js";
import { type ReplayOptions, replayText } from "./replay.js";
import { isExpired, type ScanContext, scanNewChips } from "./scan.js";
import { compareInstant, formatInstant, type Instant } from "./time.js";
import { checkOrigin, checkTool } from "./validate.js";

const MAX_SUB_NS = 999_999;
const utf8Strict = new TextDecoder("utf-8", { fatal: true });

export class ChipStore {
  readonly dir: string | null;
  readonly capacity: number;
  readonly ttlMs: number | null;
  readonly failureThresholdBytes: number;
  readonly maxChipBytes: number;
  /** What opening the store found on disk. */
  readonly loadReport: LoadReport;

  private readonly clock: () => number;
  private readonly random: RandomBytes;
  private readonly memoryPayloadBytes: number;
  private readonly queue = new ChipQueue();
  /** corrupt file name -> mtime when seen, so each corrupt file is reported once per change */
  private readonly corruptSeen = new Map<string, number>();
  private persistOk: boolean;
  private persistProblem: string | null = null;
  private last: Instant = { ms: Number.NEGATIVE_INFINITY, subNs: 0 };
  private closed = false;

  constructor(options: ChipStoreOptions = {}) {
    this.capacity = positiveInt("capacity", options.capacity, 30);
    this.failureThresholdBytes = positiveInt("failureThresholdBytes", options.failureThresholdBytes, 50);
    this.maxChipBytes = positiveInt("maxChipBytes", options.maxChipBytes, 64 * 1024 * 1024);
    this.memoryPayloadBytes = positiveInt("memoryPayloadBytes", options.memoryPayloadBytes, 1024 * 1024);
    this.ttlMs = options.ttlMs === undefined ? null : positiveInt("ttlMs", options.ttlMs, 1);
    this.clock = options.clock ?? Date.now;
    this.random = options.random ?? ((n) => randomBytes(n));
    const persist = options.persist ?? true;
    if (persist && (typeof options.dir !== "string" || options.dir === "")) {
      throw new ChipStoreError(
        "chip_invalid_option",
        "dir is required when persist is on (see defaultChipDir)",
      );
    }
    this.dir = persist ? (options.dir as string) : null;
    this.persistOk = persist;
    this.loadReport = {
      loaded: 0,
      skipped: [],
      expired: [],
      evicted: [],
      staleTempsRemoved: 0,
      warnings: [],
    };
    if (this.dir) {
      let unsafe: string | null = null;
      try {
        unsafe = ensureChipDir(this.dir);
        if (!unsafe) this.loadReport.staleTempsRemoved = removeStaleTemps(this.dir, this.clock());
      } catch (e) {
        this.disablePersistence(`cannot use chip directory ${this.dir}: ${(e as Error).message}`);
        this.loadReport.warnings.push(this.persistProblem as string);
      }
      // Never chmod what we did not create: an unsafe existing directory is refused, untouched.
      if (unsafe) throw new ChipStoreError("chip_unsafe_dir", unsafe);
      const before = this.queue.entries.length;
      const { skipped, expired, evicted } = this.sync();
      this.loadReport.loaded = this.queue.entries.length - before + evicted.length;
      this.loadReport.skipped = skipped;
      this.loadReport.expired = expired;
      this.loadReport.evicted = evicted;
    }
  }

  /** Saves the arguments of a failed tool call when their JSON is longer than the threshold. */
  saveFailure(input: SaveFailureInput): SaveResult {
    this.assertOpen();
    const tool = checkTool(input.tool);
    let argsJson: string | undefined;
    try {
      argsJson = JSON.stringify(input.args);
    } catch (cause) {
      throw new ChipStoreError(
        "chip_invalid_input",
        `args cannot be saved as JSON (${(cause as Error).message}); pass plain JSON values`,
        { cause },
      );
    }
    if (argsJson === undefined) {
      throw new ChipStoreError("chip_invalid_input", "args is undefined or a function; pass a JSON value");
    }
    if (Buffer.byteLength(argsJson, "utf8") <= this.failureThresholdBytes) {
      return { chip: null, warnings: [], evicted: [] };
    }
    const payload: Payload = { argsJson };
    const extra: Partial<Chip> = { args: JSON.parse(argsJson) };
    if (input.errMsg !== undefined) {
      if (typeof input.errMsg !== "string") {
        throw new ChipStoreError("chip_invalid_input", "errMsg must be a string; nothing was saved");
      }
      if (Buffer.byteLength(input.errMsg, "utf8") > this.maxChipBytes) {
        throw new ChipStoreError(
          "chip_too_large",
          `errMsg is over the chip limit of ${this.maxChipBytes} bytes; shorten it; nothing was saved`,
        );
      }
      extra.err_msg = input.errMsg;
    }
    return this.save("failure", tool, payload, extra);
  }

  /** Saves text or bytes (removed or overwritten content). Bytes that are not UTF-8 are kept exactly. */
  saveContent(input: SaveContentInput): SaveResult {
    this.assertOpen();
    const tool = checkTool(input.tool);
    const payload: Payload = {};
    if (typeof input.content === "string") {
      payload.content = input.content;
    } else if (input.content instanceof Uint8Array) {
      try {
        payload.content = utf8Strict.decode(input.content);
      } catch {
        payload.data = new Uint8Array(input.content);
      }
    } else {
      throw new ChipStoreError("chip_invalid_input", "content must be a string or a Uint8Array");
    }
    const extra: Partial<Chip> = {};
    if (input.origin !== undefined) extra.origin = checkOrigin(input.origin);
    return this.save("content", tool, payload, extra);
  }

  /** Chips oldest first, without payloads. */
  list(filter: ListFilter = {}): ChipMeta[] {
    this.assertOpen();
    this.sync();
    const q = filter.query?.toLowerCase();
    const out: ChipMeta[] = [];
    for (const e of this.queue.entries) {
      const m = e.meta;
      if (filter.tool !== undefined && m.tool !== filter.tool) continue;
      if (filter.kind !== undefined && m.kind !== filter.kind) continue;
      if (filter.path !== undefined && !pathMatches(m.origin?.path, filter.path)) continue;
      if (q !== undefined && !textMatches(e.meta, e.chip, e.id, q, (id) => this.get(id))) continue;
      out.push({ ...m, ...(m.origin ? { origin: { ...m.origin } } : {}) });
    }
    return out;
  }

  /** Returns the chip, or null when there is no live chip with that id (including malformed ids). */
  find(id: string): Chip | null {
    this.assertOpen();
    if (!isValidChipId(id)) return null;
    try {
      return this.get(id);
    } catch (e) {
      if (e instanceof ChipStoreError && e.code === "chip_not_found") return null;
      throw e;
    }
  }

  /** Returns the chip: memory first, then disk (a chip from another process or before a restart). */
  get(id: string): Chip {
    this.assertOpen();
    if (!isValidChipId(id)) {
      throw new ChipStoreError(
        "chip_invalid_id",
        `"${String(id).slice(0, 40)}" is not a chip id (6 or 12 lowercase hex)`,
      );
    }
    const now = this.clock();
    const known = this.queue.get(id);
    if (known && isExpired(known.meta, now)) {
      this.drop(known, true);
      throw this.notFound(id);
    }
    if (known?.chip) return this.copy(known.chip);
    if (!this.dir || !this.persistOk) throw this.notFound(id);
    let text: string;
    try {
      text = readChipFile(this.dir, chipFileName(id), this.maxFileBytes());
    } catch (e) {
      if (known) this.drop(known, false);
      if (errnoCode(e) === "ENOENT") throw this.notFound(id);
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
      unlinkQuiet(join(this.dir, chipFileName(id)));
      if (known) this.drop(known, false);
      throw this.notFound(id);
    }
    if (!known)
      this.queue.insert({ id, order, meta: metaOf(chip), chip: this.keepPayload(chip), onDisk: true });
    return chip;
  }

  /** The text to put back: raw content, or a failure chip's content field (see ReplayOptions). */
  replay(id: string, options?: ReplayOptions): string {
    return replayText(this.get(id), options);
  }

  /** The exact bytes of a content chip (text chips as UTF-8). */
  replayBytes(id: string): Uint8Array {
    const chip = this.get(id);
    if (chip.data) return new Uint8Array(chip.data);
    return new Uint8Array(Buffer.from(replayText(chip), "utf8"));
  }

  /** Deletes one chip; false when there was none. */
  delete(id: string): boolean {
    this.assertOpen();
    if (!isValidChipId(id)) return false;
    const known = this.queue.get(id);
    let removed = false;
    if (this.dir && this.persistOk) {
      try {
        unlinkSync(join(this.dir, chipFileName(id)));
        removed = true;
      } catch (e) {
        // A file that stays would be learned again by the next sync: the chip would come back.
        if (errnoCode(e) !== "ENOENT") {
          throw new ChipStoreError(
            "chip_io_failed",
            `chip ${id} could not be deleted from ${this.dir} (${(e as Error).message}); it is kept; fix the directory's permissions and retry`,
            { cause: e },
          );
        }
      }
    }
    if (known) this.drop(known, false);
    return removed || known !== undefined;
  }

  /**
   * Deletes every chip, in memory and in the directory; returns how many. Files that cannot be
   * removed keep their chips (they would come back on the next sync) and raise chip_io_failed.
   */
  clear(): number {
    this.assertOpen();
    const ids = new Set(this.queue.entries.filter((e) => !e.onDisk).map((e) => e.id));
    const kept: string[] = [];
    let failure: unknown;
    if (this.dir && this.persistOk) {
      for (const name of listChipFiles(this.dir)) {
        const id = idFromFileName(name) as string;
        try {
          unlinkSync(join(this.dir, name));
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
        `${kept.length} chip file(s) in ${this.dir} could not be deleted (${(failure as Error).message}); those chips are kept; fix the directory's permissions and retry`,
        { cause: failure },
      );
    }
    return ids.size;
  }

  /** Every write is synchronous and durable already; close only refuses further use. */
  close(): void {
    this.closed = true;
  }

  private save(kind: ChipKind, tool: string, payload: Payload, extra: Partial<Chip>): SaveResult {
    const facts = describePayload(payload);
    if (facts.bytes > this.maxChipBytes) {
      throw new ChipStoreError(
        "chip_too_large",
        `${facts.bytes} bytes is over the chip limit of ${this.maxChipBytes} bytes; nothing was saved`,
      );
    }
    const warnings: string[] = [];
    const { evicted: evictedBefore } = this.sync();
    const order = this.nextInstant();
    const created_at = formatInstant(order);
    const chip: Chip = { id: "", kind, tool, created_at, binary: !!payload.data, ...facts, ...extra };
    if (this.ttlMs !== null) chip.expires_at = new Date(order.ms + this.ttlMs).toISOString();
    if (payload.content !== undefined) chip.content = payload.content;
    if (payload.data) chip.data = payload.data;

    const stored = Buffer.byteLength(toDiskJson(chip));
    if (stored > this.maxFileBytes()) {
      throw new ChipStoreError(
        "chip_too_large",
        `its stored form would be ${stored} bytes (control characters are escaped), over the ${this.maxFileBytes()}-byte file limit; nothing was saved`,
      );
    }
    const onDisk = this.allocateAndWrite(chip, warnings);
    this.queue.insert({
      id: chip.id,
      order,
      meta: metaOf(chip),
      chip: onDisk ? this.keepPayload(chip) : chip,
      onDisk,
    });
    const evicted = [...evictedBefore, ...this.enforceCapacity()];
    for (const id of evicted) warnings.push(`oldest chip ${id} was evicted (queue max ${this.capacity})`);
    return { chip: metaOf(chip), warnings, evicted };
  }

  /** Picks a free id and writes the file; returns whether the chip is on disk. */
  private allocateAndWrite(chip: Chip, warnings: string[]): boolean {
    for (let attempt = 0; attempt < 10; attempt++) {
      const id = newChipId(this.random, attempt >= 5);
      if (this.queue.has(id)) continue;
      if (!this.dir || !this.persistOk) {
        chip.id = id;
        if (this.persistProblem) warnings.push(`chip ${id} kept in memory only: ${this.persistProblem}`);
        return false;
      }
      if (chipFileExists(this.dir, id)) continue;
      chip.id = id;
      try {
        writeExclusive(
          this.dir,
          chipFileName(id),
          toDiskJson(chip),
          Buffer.from(this.random(8)).toString("hex"),
        );
        return true;
      } catch (e) {
        if (errnoCode(e) === "EEXIST") continue;
        warnings.push(
          `chip ${id} kept in memory only: could not write it to ${this.dir} (${(e as Error).message})`,
        );
        return false;
      }
    }
    throw new ChipStoreError(
      "chip_invalid_option",
      "could not find a free chip id in 10 tries; is the random source broken?",
    );
  }

  /**
   * Brings memory in line with the directory: learns chips other processes wrote, forgets chips
   * whose files are gone, removes expired chips, and enforces capacity.
   */
  private sync(): { skipped: { file: string; reason: string }[]; expired: string[]; evicted: string[] } {
    const skipped: { file: string; reason: string }[] = [];
    const expired: string[] = [];
    const evictedEarly: string[] = [];
    const now = this.clock();
    let names: string[] = [];
    if (this.dir && this.persistOk) {
      try {
        names = listChipFiles(this.dir);
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
    if (this.dir && this.persistOk) {
      // New chips are gathered and merged in one sort, and trimmed to capacity every so often:
      // one-by-one sorted inserts made opening a directory of 100k chips quadratic, and holding
      // every payload until the end let a big directory exhaust memory.
      const fresh: Entry[] = [];
      const ctx: ScanContext = {
        dir: this.dir,
        now,
        maxFileBytes: this.maxFileBytes(),
        corruptSeen: this.corruptSeen,
        known: (id) => this.queue.has(id),
        keepPayload: (chip) => this.keepPayload(chip),
      };
      for (const out of scanNewChips(ctx, names)) {
        if (out.type === "expired") expired.push(out.id);
        else if (out.type === "skipped") skipped.push({ file: out.file, reason: out.reason });
        else {
          if (fresh.length >= 2 * this.capacity + 64) evictedEarly.push(...this.merge(fresh.splice(0)));
          fresh.push(out.entry);
          this.queue.register(out.entry);
        }
      }
      evictedEarly.push(...this.merge(fresh));
    }
    return { skipped, expired, evicted: [...evictedEarly, ...this.enforceCapacity()] };
  }

  /** Merges new entries (already registered) into the queue, then enforces capacity. */
  private merge(fresh: Entry[]): string[] {
    if (fresh.length === 0) return [];
    this.queue.merge(fresh);
    return this.enforceCapacity();
  }

  private enforceCapacity(): string[] {
    const oldest = this.queue.overflow(this.capacity);
    if (oldest.length === 0) return [];
    this.dropMany(oldest, true);
    return oldest.map((e) => e.id);
  }

  private dropMany(victims: Entry[], removeFile: boolean): void {
    this.queue.removeMany(victims);
    for (const e of victims) {
      if (removeFile && e.onDisk && this.dir) unlinkQuiet(join(this.dir, chipFileName(e.id)));
    }
  }

  private drop(entry: Entry, removeFile: boolean): void {
    this.queue.remove(entry);
    if (removeFile && entry.onDisk && this.dir) unlinkQuiet(join(this.dir, chipFileName(entry.id)));
  }

  private nextInstant(): Instant {
    const ms = this.clock();
    // A new chip is newer than every chip this store knows, its own or loaded from disk: a clock
    // that stalls or steps back (or a restart within the same millisecond) must not let a new
    // chip sort before an older one and be evicted first.
    // A chip dated ahead of the clock (another host's skewed clock, a hostile file) is not a floor:
    // adopting it would stamp every later chip with its date, and a date near year 9999 would
    // overflow into a created_at that no longer parses, so the chip would be unreadable on reload.
    const newest = this.queue.entries.at(-1)?.order;
    const floor = newest && newest.ms <= ms && compareInstant(newest, this.last) > 0 ? newest : this.last;
    if (ms > floor.ms) this.last = { ms, subNs: 0 };
    else if (floor.subNs < MAX_SUB_NS) this.last = { ms: floor.ms, subNs: floor.subNs + 1 };
    else this.last = { ms: floor.ms + 1, subNs: 0 };
    return this.last;
  }

  /**
   * A chip file can be at most this big, so a huge file under a chip name is refused by its size
   * (fstat) before it is read: base64 inflates a payload by 4/3 and JSON escaping of quotes and
   * backslashes by 2; a payload whose stored form would be larger (mostly control characters,
   * escaped 6x) is refused at save with chip_too_large.
   */
  private maxFileBytes(): number {
    return this.maxChipBytes * 2 + 1024 * 1024;
  }

  private keepPayload(chip: Chip): Chip | null {
    return chip.bytes > this.memoryPayloadBytes ? null : chip;
  }

  private copy(chip: Chip): Chip {
    // args is the one mutable payload; a caller that edits it must not edit the store's copy.
    const out: Chip = { ...chip };
    if (chip.origin) out.origin = { ...chip.origin };
    // A JSON round trip, not structuredClone: args are JSON values, and structuredClone overflows
    // the stack on args nested a few thousand levels deep that JSON handles.
    if (chip.kind === "failure") out.args = JSON.parse(JSON.stringify(chip.args) ?? "null");
    if (chip.data) out.data = new Uint8Array(chip.data);
    return out;
  }

  private disablePersistence(why: string): void {
    this.persistOk = false;
    this.persistProblem = why;
  }

  private notFound(id: string): ChipStoreError {
    return new ChipStoreError(
      "chip_not_found",
      `no chip ${id} (it may have been evicted or expired); list chips to see what is kept`,
    );
  }

  private assertOpen(): void {
    if (this.closed) throw new ChipStoreError("chip_invalid_option", "the chip store is closed");
  }
}

export type {
  ChipStoreOptions,
  ListFilter,
  LoadReport,
  SaveContentInput,
  SaveFailureInput,
  SaveResult,
} from "./options.js";

/** Opens a chip store: creates the directory, loads what is there, applies capacity and TTL. */
export function openChipStore(options: ChipStoreOptions = {}): ChipStore {
  return new ChipStore(options);
}
