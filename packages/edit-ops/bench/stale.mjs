// Stale-context benchmark (no model): an agent reads one line of a file, then replaces it, while
// another writer changes the file between the read and the edit. For each guard the agent may send
// (none, expected_hash, range_hash, both) it counts what happened:
//   correct edit      the intended line was replaced, nothing else changed;
//   correct refusal   the target line itself had changed, and the edit was refused;
//   needless refusal  the intended edit was still possible, but the edit was refused;
//   silent wrong edit the edit went through and the file is not what was intended (the other
//                     writer's change to the target was overwritten, or another line was hit).
// `needless_on_repeated_line` counts the needless refusals whose target line's text also appears
// elsewhere in the file (`}`, `  return x;`): a one-line range_hash cannot tell those copies apart.
// Every trial is a real edit of a real file through the editor. The run is seeded: same figures
// on every machine.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEditor, isEditError } from "../dist/index.js";

/** A small deterministic PRNG (mulberry32), so the benchmark is reproducible. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Code-shaped lines: mostly distinct, with the repeats real code has (`}`, `  }`, blank lines,
 * `  return x;`): 4 of every 12 lines repeat. A one-line range over a repeated line cannot be
 * told from its copies once the file moved, so those edits are refused rather than guessed.
 */
function baseFile(functions) {
  const lines = [];
  for (let f = 0; f < functions; f++) {
    lines.push(`export function step${f}(input: number, scale = ${f + 2}): number {`);
    lines.push(`  const x = input * scale + ${f};`);
    lines.push(`  const label = "step ${f}";`);
    lines.push(`  if (x > ${f * 10}) {`);
    lines.push(`    log(label, "large", x);`);
    lines.push(`    metrics.count("step${f}.large");`);
    lines.push("  }");
    lines.push(`  cache.set(label, x / ${f + 1});`);
    lines.push(`  trace("${f}", x);`);
    lines.push("  return x;");
    lines.push("}");
    lines.push("");
  }
  return lines;
}

const SCENARIOS = ["insert above", "change target", "change elsewhere", "no change"];
const GUARDS = ["none", "expected_hash", "range_hash", "range_hash + expected_hash"];

/**
 * Run `trials` trials per scenario for each guard; the same trials (target, writer's change) are
 * replayed for every guard.
 */
export async function staleContext({ trials = 100, functions = 25, seed = 16 } = {}) {
  // Memory-backed when the machine has it: the figures are counts, and fsync would only slow them.
  const scratch = existsShm() ? "/dev/shm" : tmpdir();
  const dir = mkdtempSync(join(scratch, "edit-ops-stale-"));
  const journalDir = mkdtempSync(join(scratch, "edit-ops-stale-journal-"));
  const editor = createEditor({ roots: [dir], journalDir, journalDepth: 1 });
  const path = join(dir, "code.ts");
  const base = baseFile(functions);
  const seen = new Set();
  const repeated = new Set();
  for (const l of base) (seen.has(l) ? repeated : seen).add(l);
  const random = rng(seed);
  const plans = [];
  for (const scenario of SCENARIOS) {
    for (let i = 0; i < trials; i++) {
      const target = 1 + Math.floor(random() * base.length);
      const other = 1 + Math.floor(random() * base.length);
      const count = 1 + Math.floor(random() * 5);
      const at = Math.floor(random() * target); // insert after this line (0 = top), above the target
      plans.push({
        scenario,
        target,
        other: other === target ? (other % base.length) + 1 : other,
        count,
        at,
      });
    }
  }
  const table = {};
  try {
    for (const guard of GUARDS) {
      const tally = Object.fromEntries(
        SCENARIOS.map((s) => [
          s,
          {
            correct_edit: 0,
            correct_refusal: 0,
            needless_refusal: 0,
            needless_on_repeated_line: 0,
            silent_wrong_edit: 0,
          },
        ]),
      );
      for (const [n, p] of plans.entries()) {
        writeFileSync(path, `${base.join("\n")}\n`);
        const read = await editor.read({ path: `code.ts:${p.target}` });
        // The other writer.
        const now = [...base];
        let intendedIndex = p.target - 1;
        if (p.scenario === "insert above") {
          const added = Array.from({ length: p.count }, (_, k) => `// added ${n}.${k}`);
          now.splice(p.at, 0, ...added);
          intendedIndex += p.count;
        } else if (p.scenario === "change target") {
          now[p.target - 1] = `${now[p.target - 1]} // edited by someone else`;
          intendedIndex = -1;
        } else if (p.scenario === "change elsewhere") {
          now[p.other - 1] = `${now[p.other - 1]} // edited by someone else`;
        }
        writeFileSync(path, `${now.join("\n")}\n`);
        // The agent's edit, made from what it read.
        const content = `// replaced by the agent (${n})`;
        const args = { path: `code.ts:${p.target}`, content };
        if (guard.includes("expected_hash")) args.expected_hash = read.hash;
        if (guard.startsWith("range_hash")) args.range_hash = read.range_hash;
        let refused = false;
        try {
          await editor.replace(args);
        } catch (err) {
          if (!isEditError(err)) throw err;
          refused = true;
        }
        const t = tally[p.scenario];
        if (intendedIndex === -1) {
          if (refused) t.correct_refusal++;
          else t.silent_wrong_edit++;
          continue;
        }
        if (refused) {
          t.needless_refusal++;
          if (repeated.has(base[p.target - 1])) t.needless_on_repeated_line++;
          continue;
        }
        const intended = [...now];
        intended[intendedIndex] = content;
        if (readFileSync(path, "utf8") === `${intended.join("\n")}\n`) t.correct_edit++;
        else t.silent_wrong_edit++;
      }
      table[guard] = tally;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(journalDir, { recursive: true, force: true });
  }
  return { trials_per_scenario: trials, file_lines: base.length, seed, table };
}

function existsShm() {
  try {
    return readFileSync("/proc/mounts", "utf8").includes(" /dev/shm ");
  } catch {
    return false;
  }
}

/** Rows for printTable: one per guard, totals over the scenarios, then per scenario. */
export function staleRows(result) {
  const rows = [];
  for (const guard of GUARDS) {
    const sum = {
      correct_edit: 0,
      correct_refusal: 0,
      needless_refusal: 0,
      needless_on_repeated_line: 0,
      silent_wrong_edit: 0,
    };
    for (const s of SCENARIOS) for (const k of Object.keys(sum)) sum[k] += result.table[guard][s][k];
    rows.push({ guard, scenario: "all", ...sum });
    for (const s of SCENARIOS) rows.push({ guard: "", scenario: s, ...result.table[guard][s] });
  }
  return rows;
}
