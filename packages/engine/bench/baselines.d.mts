// Types for baselines.mjs (used by the tests).
import type { CorpusItem } from "./corpus.mjs";
import type { GradedEngine } from "./graders.mjs";

export function minifiedTokens(engine: GradedEngine, item: CorpusItem): number | null;
export function toonTokens(engine: GradedEngine, item: CorpusItem): number | null;
export function headTail(engine: GradedEngine, text: string, budget: number): string;
export function baselines(
  engine: GradedEngine,
  item: CorpusItem,
  tokensIn: number,
  budget: number,
): { raw: number; minified: number | null; toon: number | null; headTail: { tokens: number; lost: number } };
