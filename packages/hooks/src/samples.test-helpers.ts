// Realistic tool outputs for the hook tests, generated deterministically, and a hook context on a
// real memory store.
import { type CcrStore, openMemoryStore } from "@caveman/ccr-store";
import { inlineRunner, keep } from "@caveman/keep";
import { DEFAULT_HOOK_SETTINGS, type HookSettings } from "./settings.js";
import type { HookContext } from "./shrink.js";

/**
 * A hook context on a fresh memory store (also returned as `ccr`): the real keep with the engine
 * inline, as the app wires it, and a deadline that has not passed unless `expired` says so.
 */
export function memoryContext(
  over: Partial<HookSettings> = {},
  store: CcrStore = openMemoryStore(),
  persistRoots: string[] = [],
  expired: () => boolean = () => false,
): HookContext & { ccr: CcrStore } {
  return {
    settings: { ...DEFAULT_HOOK_SETTINGS, ...over },
    keep: (req) => keep(req, { run: inlineRunner, store, expired }),
    keepText: (text, meta) => Promise.resolve(store.put(text, meta).handle),
    expired,
    persistRoots,
    ccr: store,
  };
}

export function bigLog(lines = 2000): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const ts = `2026-11-02T09:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;
    if (i === 1234)
      out.push(`${ts} ERROR payment-svc charge failed for order 98123: card_declined (code 402)`);
    else out.push(`${ts} INFO http GET /api/items/${i % 50} 200 ${(i * 37) % 400}ms worker-${i % 4}`);
  }
  return `${out.join("\n")}\n`;
}

export function failingPytest(): string {
  const out = [
    "============================= test session starts ==============================",
    "collected 240 items",
    "",
  ];
  for (let f = 0; f < 12; f++) out.push(`tests/test_mod${f}.py ${".".repeat(20)}${f === 7 ? "F" : ""}`);
  out.push("", "=================================== FAILURES ===================================");
  out.push("______________________________ test_refund_total _______________________________", "");
  out.push(
    "    def test_refund_total():",
    "        order = make_order(total=100)",
    "        refund(order, 30)",
  );
  out.push(
    ">       assert order.total == 70",
    "E       assert 100 == 70",
    "E        +  where 100 = <Order id=7>.total",
    "",
  );
  out.push("tests/test_mod7.py:42: AssertionError");
  out.push("=========================== short test summary info ============================");
  out.push("FAILED tests/test_mod7.py::test_refund_total - assert 100 == 70");
  out.push("======================== 1 failed, 239 passed in 4.21s =========================");
  for (let i = 0; i < 300; i++)
    out.splice(3, 0, `tests/test_gen.py::test_case_${i} PASSED [${String(Math.floor(i / 3)).padStart(3)}%]`);
  return `${out.join("\n")}\n`;
}

export function bigJson(records = 400): string {
  const items = Array.from({ length: records }, (_, i) => ({
    id: 1000 + i,
    name: `item-${i}`,
    status: i === 211 ? "error" : "ok",
    price: (i * 7) % 90,
    tags: ["a", "b"],
  }));
  return JSON.stringify({ total: records, items }, null, 2);
}

export function bigDiff(files = 6, hunkLines = 120): string {
  const out: string[] = [];
  for (let f = 0; f < files; f++) {
    out.push(
      `diff --git a/src/mod${f}.ts b/src/mod${f}.ts`,
      "index 1111111..2222222 100644",
      `--- a/src/mod${f}.ts`,
      `+++ b/src/mod${f}.ts`,
    );
    out.push(`@@ -1,${hunkLines} +1,${hunkLines} @@`);
    for (let i = 0; i < hunkLines; i++) {
      if (i === 60) out.push(`-export const limit${f} = 10;`, `+export const limit${f} = 20;`);
      else out.push(` const value${f}_${i} = compute(${i}, "context line ${i}");`);
    }
  }
  return `${out.join("\n")}\n`;
}

export function bigGrep(hits = 600): string {
  const out: string[] = [];
  for (let i = 0; i < hits; i++)
    out.push(`src/pkg${i % 12}/file${i % 30}.ts:${10 + i}:  const handler = useHandler("event-${i}");`);
  return `${out.join("\n")}\n`;
}

export function sourceCode(): string {
  const out: string[] = [];
  for (let i = 0; i < 60; i++) {
    out.push(`export function fn${i}(a: number, b: number): number {`);
    for (let j = 0; j < 8; j++)
      out.push(`  const v${j} = transform(a * ${i + j}, b - ${j}, { mode: "strict", retries: ${j} });`);
    out.push("  return v0 + v7;", "}", "");
  }
  return out.join("\n");
}
