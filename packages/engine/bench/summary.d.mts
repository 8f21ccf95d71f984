// Types for summary.mjs (used by the tests).
import type { ItemGrade } from "./graders.mjs";

export interface KindSummary {
  kind: string;
  items: number;
  tokensIn: number;
  tokensOut: number;
  medianReduction: number | null;
  target: number | null;
  minifiedReduction: number | null;
  toonReduction: number | null;
  headTailReduction: number | null;
  visible: number;
  needsRetrieve: number;
  lost: number;
  headTailLost: number;
  passedThrough: number;
  fabricatedLines: number;
  notDeterministic: number;
  notIdempotent: number;
  retrieveNotExact: number;
  toonRoundTripFailed: number;
}
export const TARGETS: Record<string, number>;
export function median(values: (number | null | undefined)[]): number | null;
export function summarize(grades: ItemGrade[], kinds?: readonly string[]): KindSummary[];
export function meetsTarget(row: KindSummary): boolean | null;
