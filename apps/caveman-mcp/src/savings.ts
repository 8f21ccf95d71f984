// Where the binary keeps its savings journal: `<caveman home>/savings.jsonl` (one line per
// compression and per retrieve, never content; see @caveman/savings). Contract: recording never
// throws and never delays the caller beyond one small append; the directory is created on the
// first record (0700), so a command that records nothing creates nothing.
import type { Kept } from "@caveman/keep";
import { openJournal, type SavingsEntry, type SavingsJournal } from "@caveman/savings";
import type { Config } from "./config.js";
import { ensureDir } from "./dirs.js";

export function savingsJournal(config: Config, clock: () => number = Date.now): SavingsJournal {
  return openJournal({ dir: config.hooks.cavemanHome, clock });
}

/** What the hook, the proxy, the server and the CLI call once per compression or retrieve. */
type RecordSaving = (entry: Omit<SavingsEntry, "at"> & { at?: number }) => void;

function savingsRecorder(config: Config, clock: () => number = Date.now): RecordSaving {
  let journal: SavingsJournal | undefined;
  return (entry) => {
    try {
      if (!journal) {
        ensureDir(config.hooks.cavemanHome);
        journal = savingsJournal(config, clock);
      }
      journal.append(entry);
    } catch {
      // A lost journal line must never cost a compression.
    }
  };
}

/** The server's and the proxy's `onRetrieved`: one `retrieved` line per retrieve. */
export function retrieveRecorder(
  config: Config,
  host: string,
): (r: { handle: string; kind: string | null; tokens: number }) => void {
  const record = savingsRecorder(config);
  return (r) =>
    record({
      event: "retrieved",
      host,
      tool: "caveman_retrieve",
      kind: r.kind ?? "unknown",
      tokensIn: 0,
      tokensOut: r.tokens,
      handle: r.handle,
      ...(config.hooks.hostSession ? { session: config.hooks.hostSession } : {}),
    });
}

/** keep's `onKept` for one caller: one `kept` line per stand-in, with its tool's name. */
export function keptRecorder(
  config: Config,
  host: string,
  session: string | undefined = config.hooks.hostSession,
): (tool: string) => (k: Kept) => void {
  const record = savingsRecorder(config);
  return (tool) => (k) =>
    record({
      event: "kept",
      host,
      tool,
      kind: k.kind,
      tokensIn: k.tokensIn,
      tokensOut: k.tokensOut,
      handle: k.handle,
      ...(session ? { session } : {}),
    });
}
