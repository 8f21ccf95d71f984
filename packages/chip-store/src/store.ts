// The chip store: a FIFO queue of chips, bounded by capacity and an optional TTL, mirrored to a
// directory so chips survive restarts and are shared between processes.
//
// Invariants:
// - A save never throws for an I/O failure: the chip stays in memory and the failure is reported
//   in `warnings`. It throws only for bad input (typed ChipStoreError).
// - Order is created_at, then id; within one store, saves are strictly ordered (see time.ts).
// - Capacity and TTL apply to the whole directory: before each save and list the store learns the
//   chips other processes wrote, and forgets chips whose files another process removed (mirror.ts).
// - A corrupt file is skipped and reported, never deleted.

import { randomBytes } from "node:crypto";
import { ensureChipDir, removeStaleTemps } from "./disk.js";
import { ChipStoreError } from "./errors.js";
import { pathMatches, textMatches } from "./filter.js";
import { isValidChipId } from "./ids.js";
import { ChipMirror } from "./mirror.js";
import {
  type ChipStoreOptions,
  type ListFilter,
  type LoadReport,
  positiveInt,
  type SaveContentInput,
  type SaveFailureInput,
  type SaveResult,
} from "./options.js";
import {
  type Chip,
  type ChipKind,
  type ChipMeta,
  copyChip,
  describePayload,
  metaOf,
  type Payload,
  toDiskJson,
} from "./record.js";
import { type ReplayOptions, replayText } from "./replay.js";
import { isExpired } from "./scan.js";
import { formatInstant, type Instant, nextInstant } from "./time.js";
import { contentParts, failureParts } from "./validate.js";

export class ChipStore {
  readonly dir: string | null;
  readonly capacity: number;
  readonly ttlMs: number | null;
  readonly failureThresholdBytes: number;
  readonly maxChipBytes: number;
  /** What opening the store found on disk. */
  readonly loadReport: LoadReport;

  private readonly clock: () => number;
  private readonly memoryPayloadBytes: number;
  private readonly mirror: ChipMirror;
  private last: Instant = { ms: Number.NEGATIVE_INFINITY, subNs: 0 };
  private closed = false;

  constructor(options: ChipStoreOptions = {}) {
    this.capacity = positiveInt("capacity", options.capacity, 30);
    this.failureThresholdBytes = positiveInt("failureThresholdBytes", options.failureThresholdBytes, 50);
    this.maxChipBytes = positiveInt("maxChipBytes", options.maxChipBytes, 64 * 1024 * 1024);
    this.memoryPayloadBytes = positiveInt("memoryPayloadBytes", options.memoryPayloadBytes, 1024 * 1024);
    this.ttlMs = options.ttlMs === undefined ? null : positiveInt("ttlMs", options.ttlMs, 1);
    this.clock = options.clock ?? Date.now;
    const persist = options.persist ?? true;
    if (persist && (typeof options.dir !== "string" || options.dir === "")) {
      throw new ChipStoreError(
        "chip_invalid_option",
        "dir is required when persist is on (see defaultChipDir)",
      );
    }
    this.dir = persist ? (options.dir as string) : null;
    this.mirror = new ChipMirror({
      dir: this.dir,
      capacity: this.capacity,
      clock: this.clock,
      random: options.random ?? ((n) => randomBytes(n)),
      maxFileBytes: this.maxFileBytes(),
      keepPayload: (chip) => this.keepPayload(chip),
    });
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
        this.mirror.disablePersistence(`cannot use chip directory ${this.dir}: ${(e as Error).message}`);
        this.loadReport.warnings.push(this.mirror.persistProblem as string);
      }
      // Never chmod what we did not create: an unsafe existing directory is refused, untouched.
      if (unsafe) throw new ChipStoreError("chip_unsafe_dir", unsafe);
      const before = this.mirror.queue.entries.length;
      const { skipped, expired, evicted } = this.mirror.sync();
      this.loadReport.loaded = this.mirror.queue.entries.length - before + evicted.length;
      this.loadReport.skipped = skipped;
      this.loadReport.expired = expired;
      this.loadReport.evicted = evicted;
    }
  }

  /** Saves the arguments of a failed tool call when their JSON is longer than the threshold. */
  saveFailure(input: SaveFailureInput): SaveResult {
    this.assertOpen();
    const parts = failureParts(input, this.failureThresholdBytes, this.maxChipBytes);
    if (parts === null) return { chip: null, warnings: [], evicted: [] };
    return this.save("failure", parts.tool, parts.payload, parts.extra);
  }

  /** Saves text or bytes (removed or overwritten content). Bytes that are not UTF-8 are kept exactly. */
  saveContent(input: SaveContentInput): SaveResult {
    this.assertOpen();
    const parts = contentParts(input);
    return this.save("content", parts.tool, parts.payload, parts.extra);
  }

  /** Chips oldest first, without payloads. */
  list(filter: ListFilter = {}): ChipMeta[] {
    this.assertOpen();
    this.mirror.sync();
    const q = filter.query?.toLowerCase();
    const out: ChipMeta[] = [];
    for (const e of this.mirror.queue.entries) {
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
    const known = this.mirror.queue.get(id);
    if (known && isExpired(known.meta, now)) {
      this.mirror.drop(known, true);
      throw this.notFound(id);
    }
    if (known?.chip) return copyChip(known.chip);
    const chip = this.mirror.readFile(id, known, now);
    if (chip === null) throw this.notFound(id);
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
    return this.mirror.remove(id);
  }

  /**
   * Deletes every chip, in memory and in the directory; returns how many. Files that cannot be
   * removed keep their chips (they would come back on the next sync) and raise chip_io_failed.
   */
  clear(): number {
    this.assertOpen();
    return this.mirror.removeAll();
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
    const { evicted: evictedBefore } = this.mirror.sync();
    this.last = nextInstant(this.clock(), this.mirror.queue.entries.at(-1)?.order, this.last);
    const order = this.last;
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
    const onDisk = this.mirror.allocateAndWrite(chip, warnings);
    this.mirror.queue.insert({
      id: chip.id,
      order,
      meta: metaOf(chip),
      chip: onDisk ? this.keepPayload(chip) : chip,
      onDisk,
    });
    const evicted = [...evictedBefore, ...this.mirror.enforceCapacity()];
    for (const id of evicted) warnings.push(`oldest chip ${id} was evicted (queue max ${this.capacity})`);
    return { chip: metaOf(chip), warnings, evicted };
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

/** Opens a chip store: creates the directory, loads what is there, applies capacity and TTL. */
export function openChipStore(options: ChipStoreOptions = {}): ChipStore {
  return new ChipStore(options);
}
