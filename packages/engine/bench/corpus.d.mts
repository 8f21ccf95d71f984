// Types for corpus.mjs (used by the tests).
export interface Gold {
  text: string;
  query?: string;
  note?: string;
}
export interface CorpusItem {
  id: string;
  kind: string;
  hint: string;
  /** Broad corpus only: the log family or output form, e.g. "log:hdfs", "diff:word-diff". */
  family?: string;
  file: string;
  source: string;
  bytes: number;
  sha256: string;
  gold: Gold[];
  content: string;
}
export const corpusDir: string;
export function sha256(text: string): string;
export function loadCorpus(dir?: string): CorpusItem[];
