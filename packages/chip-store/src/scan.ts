// Reading the chips other processes wrote: one pass over the directory's chip files that yields,
// for each file the store does not know yet, a live entry, an expired chip (its file removed), or
// a skipped file with the reason. Corrupt files are remembered by mtime so each is read and
// reported once per change, and never deleted.

import { join } from "node:path";
import { errnoCode, fileMtimeMs, idFromFileName, readChipFile, unlinkQuiet } from "./disk.js";
import type { Entry } from "./queue.js";
import { type Chip, fromDiskJson, metaOf } from "./record.js";
import { parseInstant } from "./time.js";

export interface ScanContext {
  dir: string;
  now: number;
  maxFileBytes: number;
  /** corrupt file name -> mtime when last seen */
  corruptSeen: Map<string, number>;
  known(id: string): boolean;
  keepPayload(chip: Chip): Chip | null;
}

export type ScanOutcome =
  | { type: "fresh"; entry: Entry }
  | { type: "expired"; id: string }
  | { type: "skipped"; file: string; reason: string };

export function isExpired(meta: { expires_at?: string }, now: number): boolean {
  if (meta.expires_at === undefined) return false;
  const t = parseInstant(meta.expires_at);
  return t !== null && t.ms <= now;
}

/** Lazily, so the caller can merge and trim to capacity between files. */
export function* scanNewChips(ctx: ScanContext, names: readonly string[]): Generator<ScanOutcome> {
  for (const name of names) {
    const id = idFromFileName(name) as string;
    if (ctx.known(id)) continue;
    const mtime = fileMtimeMs(ctx.dir, name);
    if (mtime !== null && ctx.corruptSeen.get(name) === mtime) continue;
    try {
      const { chip, order } = fromDiskJson(readChipFile(ctx.dir, name, ctx.maxFileBytes), id, name);
      ctx.corruptSeen.delete(name);
      if (isExpired(chip, ctx.now)) {
        unlinkQuiet(join(ctx.dir, name));
        yield { type: "expired", id };
        continue;
      }
      yield {
        type: "fresh",
        entry: { id, order, meta: metaOf(chip), chip: ctx.keepPayload(chip), onDisk: true },
      };
    } catch (e) {
      if (errnoCode(e) === "ENOENT") continue; // removed by another process meanwhile
      if (mtime !== null) ctx.corruptSeen.set(name, mtime);
      yield { type: "skipped", file: name, reason: (e as Error).message };
    }
  }
}
