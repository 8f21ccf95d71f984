// pnpm bench for @caveman/chip-store: save / get / list throughput for 1 KB and 1 MB chips on a
// real temp directory (each save is a durable, fsynced file).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measure, printTable, writeResults } from "@caveman/bench";
import { openChipStore } from "../dist/index.js";

const rows = [];
for (const [label, size] of [
  ["1 KB", 1024],
  ["1 MB", 1024 * 1024],
]) {
  const dir = mkdtempSync(join(tmpdir(), "chip-bench-"));
  const store = openChipStore({ dir, capacity: 30 });
  const content = `${"x".repeat(size - 1)}\n`;
  let lastId = "";
  const save = await measure(
    () => {
      lastId = store.saveContent({ tool: "bench", content }).chip.id;
    },
    { minMs: 1500 },
  );
  const getMem = await measure(() => store.get(lastId), { minMs: 500 });
  const fresh = openChipStore({ dir, capacity: 30, memoryPayloadBytes: 1 });
  const getDisk = await measure(() => fresh.get(lastId), { minMs: 500 });
  const list = await measure(() => store.list(), { minMs: 500 });
  rows.push({
    size: label,
    "save/s": save.opsPerSec,
    "save p50 ms": save.p50Ms,
    "get (memory)/s": getMem.opsPerSec,
    "get (disk)/s": getDisk.opsPerSec,
    "list (30 chips)/s": list.opsPerSec,
  });
  rmSync(dir, { recursive: true, force: true });
}
printTable("chip-store throughput (fsynced saves, capacity 30)", rows);
writeResults("chip-store", rows);
