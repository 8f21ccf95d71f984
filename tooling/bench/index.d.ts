export interface Timing {
  n: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  opsPerSec: number;
}
export function measure(
  fn: () => unknown | Promise<unknown>,
  opts?: { iterations?: number; warmup?: number; minMs?: number },
): Promise<Timing>;
export function summarize(samples: number[]): Timing;
export function printTable(title: string, rows: Record<string, string | number>[]): void;
export function writeResults(section: string, data: unknown): void;
