// Compress throughput on 10 KB, 1 MB and 10 MB inputs built by concatenating real corpus items
// of a few kinds (log and grep as text; JSON as one array of the corpus's JSON records), each
// cut at a line (or record) boundary at or below the target size.

const SIZES = [
  { label: "10 KB", bytes: 10 * 1024 },
  { label: "1 MB", bytes: 1024 * 1024 },
  { label: "10 MB", bytes: 10 * 1024 * 1024 },
];

function linesUpTo(texts, bytes) {
  const out = [];
  let size = 0;
  for (let round = 0; size < bytes; round++) {
    for (const t of texts) {
      for (const line of t.split("\n")) {
        if (line === "") continue;
        const n = Buffer.byteLength(line) + 1;
        if (size + n > bytes) return `${out.join("\n")}\n`;
        out.push(line);
        size += n;
      }
    }
    if (round > 0 && out.length === 0) break;
  }
  return `${out.join("\n")}\n`;
}

function recordsUpTo(items, bytes) {
  const records = [];
  for (const item of items) {
    const value = JSON.parse(item.content);
    const list = Array.isArray(value) ? value : Object.values(value).find(Array.isArray);
    if (list) records.push(...list);
  }
  const out = [];
  let size = 2;
  for (let i = 0; records.length > 0; i++) {
    const text = JSON.stringify(records[i % records.length], null, 2);
    if (size + text.length + 2 > bytes) break;
    out.push(text);
    size += text.length + 2;
  }
  return `[\n${out.join(",\n")}\n]\n`;
}

/** The inputs: one per (kind, size). */
export function throughputInputs(corpus) {
  const of = (kind) => corpus.filter((i) => i.kind === kind);
  const inputs = [];
  for (const size of SIZES) {
    inputs.push({
      kind: "log",
      size,
      hint: "log",
      text: linesUpTo(
        of("log").map((i) => i.content),
        size.bytes,
      ),
    });
    inputs.push({
      kind: "grep",
      size,
      hint: "grep -rn",
      text: linesUpTo(
        of("grep").map((i) => i.content),
        size.bytes,
      ),
    });
    inputs.push({ kind: "json", size, hint: "json", text: recordsUpTo(of("json"), size.bytes) });
  }
  return inputs;
}

/**
 * MB/s (MiB) of compress for each input and each engine, by wall clock (median run) and by CPU
 * time (median run), after warm-up runs: the engine runs in a long-lived server, and V8 needs a
 * few calls on a large input before its hot paths are optimised and the young generation has
 * grown (the first 1 MB JSON call took 4x the steady-state time here). With two engines (after
 * and before) the timed runs alternate, so a change in the machine's load hits both alike and
 * their ratio holds. Fewer runs for large sizes. `inputs` defaults to the benchmark corpus's.
 * Returns one row list per engine.
 */
export async function measureThroughputs(engines, corpus, inputs = throughputInputs(corpus)) {
  const rows = engines.map(() => []);
  for (const input of inputs) {
    const big = input.size.bytes >= 1024 * 1024;
    const results = [];
    const run = (k) => {
      results[k] = engines[k].compress(input.text, { hint: input.hint });
    };
    for (let i = 0; i < (big ? 4 : 3); i++) for (let k = 0; k < engines.length; k++) run(k);
    const wall = engines.map(() => []);
    const cpu = engines.map(() => []);
    const started = performance.now();
    for (let i = 0; i < (big ? 5 : 200); i++) {
      for (let k = 0; k < engines.length; k++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        run(k);
        wall[k].push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpu[k].push((c.user + c.system) / 1000);
      }
      if (!big && i >= 4 && performance.now() - started >= 300 * engines.length) break;
    }
    const mb = Buffer.byteLength(input.text) / (1024 * 1024);
    engines.forEach((_, k) => {
      const p50Ms = median(wall[k]);
      const cpuMs = median(cpu[k]);
      const result = results[k];
      rows[k].push({
        kind: input.kind,
        size: input.size.label,
        bytes: Buffer.byteLength(input.text),
        p50Ms,
        mbPerSec: mb / (p50Ms / 1000),
        cpuMs,
        cpuMbPerSec: mb / (cpuMs / 1000),
        reduction: result.reason ? 0 : 1 - result.tokensOut / result.tokensIn,
        reason: result.reason ?? "",
      });
    });
  }
  return rows;
}

function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
