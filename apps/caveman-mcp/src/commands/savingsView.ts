// How savings read in a terminal: `stats`' table and bar chart, and the status line. Contract:
// pure text from a SavingsSummary; figures are tokens (o200k) with k/M suffixes; a bar's length is
// the kind's saving relative to the largest in its window, so the chart compares kinds, and a
// negative saving (more retrieved than saved) shows as a `-` run instead of a bar.
import type { KindSums, SavingsSummary, WindowSums } from "@caveman/savings";

function tokens(n: number): string {
  const a = Math.abs(n);
  const sign = n < 0 ? "-" : "";
  if (a < 1000) return `${n}`;
  if (a < 1_000_000) return `${sign}${(a / 1000).toFixed(a < 10_000 ? 1 : 0)}k`;
  return `${sign}${(a / 1_000_000).toFixed(a < 10_000_000 ? 1 : 0)}M`;
}

const BAR = 24;
const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

function bar(value: number, max: number): string {
  if (value <= 0)
    return value < 0
      ? "-".repeat(Math.min(BAR, Math.max(1, Math.round((-value / Math.max(max, -value)) * BAR))))
      : "";
  const eighths = Math.max(1, Math.round((value / max) * BAR * 8));
  return "█".repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}

const pct = (w: Pick<WindowSums, "tokensIn" | "saved">) =>
  w.tokensIn > 0 ? `${Math.round((w.saved / w.tokensIn) * 100)}%` : "-";

function row(cells: string[], widths: number[]): string {
  return cells
    .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
    .join("  ")
    .trimEnd();
}

function table(rows: Array<[string, WindowSums | KindSums]>): string[] {
  const head = ["", "kept", "tokens in", "out", "retrieved", "saved", "%"];
  const body = rows.map(([name, w]) => [
    name,
    `${w.kept}`,
    tokens(w.tokensIn),
    tokens(w.tokensOut),
    w.retrieves ? `${tokens(w.retrievedTokens)} (${w.retrieves})` : "0",
    tokens(w.saved),
    pct(w),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  return [row(head, widths), ...body.map((r) => row(r, widths))];
}

function chart(title: string, w: WindowSums): string[] {
  if (w.kinds.length === 0) return [];
  const max = Math.max(1, ...w.kinds.map((k) => Math.abs(k.saved)));
  const width = Math.max(...w.kinds.map((k) => k.kind.length));
  return [
    "",
    `saved per kind, ${title}:`,
    ...w.kinds.map(
      (k) => `  ${k.kind.padEnd(width)}  ${bar(k.saved, max).padEnd(BAR + 1)} ${tokens(k.saved)}`,
    ),
  ];
}

/** The savings part of `caveman-mcp stats`. */
export function renderSavings(s: SavingsSummary, journalPath: string): string {
  const windows: Array<[string, WindowSums]> = [["today", s.today]];
  if (s.session) windows.push([`session ${s.session.id.slice(0, 12)}`, s.session]);
  windows.push(["all time", s.all]);
  const lines = [
    "tokens the model did not read (o200k; retrieves netted out):",
    ...table(windows).map((l) => `  ${l}`),
  ];
  if (s.all.kept + s.all.retrieves === 0) {
    lines.push("", `  nothing recorded yet in ${journalPath}`);
    return `${lines.join("\n")}\n`;
  }
  const chartWindow: [string, WindowSums] = s.session
    ? [`session ${s.session.id.slice(0, 12)}`, s.session]
    : ["all time", s.all];
  lines.push(...chart(chartWindow[0], chartWindow[1]));
  if (chartWindow[1] !== s.all) lines.push(...chart("all time", s.all));
  lines.push("", `journal ${journalPath}`);
  return `${lines.join("\n")}\n`;
}

/** One short line for Claude Code's status line. */
export function statusLine(s: SavingsSummary): string {
  const session =
    s.session && s.session.kept + s.session.retrieves > 0
      ? `${tokens(s.session.saved)} saved this session`
      : "nothing saved yet this session";
  const top = s.session?.kinds[0];
  const detail = top && top.saved > 0 ? ` (${top.kind} ${tokens(top.saved)})` : "";
  return `caveman: ${session}${detail} · ${tokens(s.today.saved)} today`;
}
