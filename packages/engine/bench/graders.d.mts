// Types for graders.mjs (used by the tests). The engine is structural so a test can pass the
// real engine (src/) or a deliberately broken one to prove the graders catch it.
import type { CorpusItem } from "./corpus.mjs";

export interface GradedEngine {
  compress(
    input: string,
    options?: { hint?: string; query?: string; handle?: string; floorTokens?: number },
  ): {
    output: string;
    kind: string;
    ratio: number;
    tokensIn: number;
    tokensOut: number;
    lossless: boolean;
    reason?: string;
  };
  narrow(
    original: string,
    query: string,
    options?: { hint?: string; limit?: number },
  ): { output: string; full: boolean };
  isMarkerLine(line: string): boolean;
  countTokens(text: string): number;
  toonEncode(
    jsonText: string,
  ): { ok: true; output: string; tokensOut: number } | { ok: false; code: string; message: string };
  toonDecode(toonText: string): { ok: true; output: string } | { ok: false; code: string; message: string };
}
export type GoldStatus = "visible" | "needs_retrieve" | "lost";
export interface ItemGrade {
  id: string;
  kind: string;
  detected: string;
  bytes: number;
  tokensIn: number;
  tokensOut: number;
  reduction: number;
  reason: string | null;
  lossless: boolean;
  compressMs: number;
  visible: number;
  needsRetrieve: number;
  lost: number;
  golds: { text: string; status: GoldStatus }[];
  fabricated: { count: number; sample: string[] };
  deterministic: boolean;
  idempotent: boolean;
  passThroughIsExact: boolean;
  retrieveExact: boolean;
  toonRoundTrip: boolean | null;
  baselines?: {
    raw: number;
    minified: number | null;
    toon: number | null;
    headTail: { tokens: number; lost: number };
  };
}
export const REENCODING_KINDS: Set<string>;
export function handleFor(original: string): string;
export function terminalView(text: string): string;
export function contains(haystack: string, text: string): boolean;
export function fabricatedLines(
  engine: GradedEngine,
  item: CorpusItem,
  output: string,
): { count: number; sample: string[] };
export function gradeItem(
  engine: GradedEngine,
  item: CorpusItem,
  options?: { baselines?: boolean },
): ItemGrade;
