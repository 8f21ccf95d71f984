// No lost updates between processes: four real processes run mixed edits on one file at once.
// Every edit that reported success must be visible at the end (its token present, or replaced
// or deleted later by its own process), and the successful edits must form one history: each
// one started from the state the previous one left (no two edits from the same state, which is
// what a lost update is), and every `expected_hash` was the state the edit really replaced.
// Size: CAVEMAN_LOST_UPDATE_EDITS edits per process (default 1000).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";

const EDITS = Number(process.env.CAVEMAN_LOST_UPDATE_EDITS ?? "1000");
const PROCS = 4;

interface Rec {
  op: string;
  ok: boolean;
  code?: string;
  token?: string;
  gone?: string;
  expected?: string;
  old_hash?: string;
  hash?: string;
  final?: string[];
}

function run(args: string[]): Promise<Rec[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      join(import.meta.dirname, "fixtures", "edit-worker.mjs"),
      ...args,
    ]);
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.stderr.on("data", (c) => {
      err += c;
    });
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`worker exited ${code}: ${err}`));
      else
        resolve(
          out
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as Rec),
        );
    });
  });
}

describe("edits from several processes on one file", () => {
  it(`loses no successful edit and keeps every expected_hash rule (${PROCS} processes x ${EDITS} edits)`, async () => {
    const root = tempDir("edit-ops-lost-");
    const file = join(root, "shared.txt");
    writeFileSync(file, "base\n");
    const start = createHash("sha256").update("base\n").digest("hex");
    const results = await Promise.all(
      Array.from({ length: PROCS }, (_, i) =>
        run([root, join(root, ".journal"), file, String(i), String(EDITS)]),
      ),
    );
    const finalText = readFileSync(file, "utf8");
    const finalHash = createHash("sha256").update(finalText).digest("hex");
    const present = new Set(finalText.split("\n"));

    let ok = 0;
    let failed = 0;
    const codes: Record<string, number> = {};
    const missing: string[] = [];
    const brokenGuards: Rec[] = [];
    // History check: successful edits are edges old_hash -> hash; one history means an Euler
    // trail from the start state to the final state using every edge exactly once.
    const outDeg = new Map<string, number>();
    const inDeg = new Map<string, number>();
    const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    for (const recs of results) {
      const final = recs.find((r) => r.final)?.final ?? [];
      for (const t of final) if (!present.has(t)) missing.push(t);
      for (const r of recs) {
        if (r.final) continue;
        if (!r.ok) {
          failed++;
          const key = `${r.op}:${r.code}`;
          codes[key] = (codes[key] ?? 0) + 1;
          continue;
        }
        ok++;
        if (r.expected && r.old_hash !== r.expected) brokenGuards.push(r);
        if (r.old_hash !== r.hash) {
          bump(outDeg, r.old_hash!);
          bump(inDeg, r.hash!);
        }
      }
    }
    // Unbalanced states: where the history starts and ends may differ by one; any other
    // imbalance is an edit whose result was overwritten (a branch in the history).
    const states = new Set([...outDeg.keys(), ...inDeg.keys()]);
    const branches: string[] = [];
    for (const s of states) {
      let d = (outDeg.get(s) ?? 0) - (inDeg.get(s) ?? 0);
      if (s === start) d -= 1;
      if (s === finalHash) d += 1;
      if (d !== 0) branches.push(`${s.slice(0, 12)}:${d}`);
    }
    const report = {
      procs: PROCS,
      edits: EDITS,
      ok,
      failed,
      codes,
      missing: missing.length,
      branches: branches.length,
      brokenGuards: brokenGuards.length,
    };
    process.stderr.write(`lost-update report: ${JSON.stringify(report)}\n`);
    // Guarded edits race each other by design (conflict is their correct answer); the rest succeed.
    expect(ok).toBeGreaterThan(PROCS * EDITS * 0.25);
    // Unguarded edits never fail under the lock; guarded ones only with conflict. A worker's own
    // token vanishing ("lost") or not found for its replace (no_match) would be a lost update.
    const unexpected = Object.keys(codes).filter((k) => !/^(insert-guarded|delete):conflict$/.test(k));
    expect(unexpected).toEqual([]);
    expect({ missing, branches, brokenGuards }).toEqual({ missing: [], branches: [], brokenGuards: [] });
  }, 600_000);
});
