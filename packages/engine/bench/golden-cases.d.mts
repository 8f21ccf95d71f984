import type { CorpusItem } from "./corpus.mjs";
export interface GoldenCase {
  name: string;
  text: string;
  options: { hint?: string; handle?: string };
}
export function goldenCases(corpus: CorpusItem[]): GoldenCase[];
