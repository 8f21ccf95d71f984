// The store's in-memory index: entries kept sorted by (created_at, id), oldest first, with an id
// lookup. It never touches disk; the store decides which dropped entries also lose their files.

import type { Chip, ChipMeta } from "./record.js";
import { compareInstant, type Instant } from "./time.js";

export interface Entry {
  id: string;
  order: Instant;
  meta: ChipMeta;
  /** null when the payload lives only on disk */
  chip: Chip | null;
  onDisk: boolean;
}

function compareEntries(a: Entry, b: Entry): number {
  return compareInstant(a.order, b.order) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export class ChipQueue {
  private items: Entry[] = [];
  private readonly byId = new Map<string, Entry>();

  /** Oldest first; callers must not mutate it. */
  get entries(): readonly Entry[] {
    return this.items;
  }

  get(id: string): Entry | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Makes an entry findable by id before merge() places it in order. */
  register(entry: Entry): void {
    this.byId.set(entry.id, entry);
  }

  insert(entry: Entry): void {
    // Binary search keeps entries sorted by (created_at, id); own saves land at the end.
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = this.items[mid] as Entry;
      const c = compareEntries(m, entry);
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    this.items.splice(lo, 0, entry);
    this.byId.set(entry.id, entry);
  }

  /** Adds many registered entries in one sort: sorted inserts one by one are quadratic. */
  merge(fresh: Entry[]): void {
    if (fresh.length === 0) return;
    this.items = this.items.concat(fresh).sort(compareEntries);
  }

  remove(entry: Entry): void {
    const i = this.items.indexOf(entry);
    if (i !== -1) this.items.splice(i, 1);
    this.byId.delete(entry.id);
  }

  /** Removes many entries in one pass; remove() one by one is quadratic. */
  removeMany(victims: Entry[]): void {
    const set = new Set(victims);
    this.items = this.items.filter((e) => !set.has(e));
    for (const e of victims) this.byId.delete(e.id);
  }

  /** The oldest entries beyond capacity (not removed). */
  overflow(capacity: number): Entry[] {
    const excess = this.items.length - capacity;
    return excess <= 0 ? [] : this.items.slice(0, excess);
  }
}
