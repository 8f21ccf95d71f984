// What the rest of the system may know about a team store (a remote, shared store of originals
// such as Redis), without loading any network code: its link state and its extra duties beyond
// the asynchronous CCR contract. The Redis implementation lives behind @caveman/ccr-store/redis.
import type { AsyncCcrStore } from "./async.js";

/** Where the link to a team store stands. */
export type TeamLinkState = "connecting" | "ready" | "down" | "closed";

/** A team store's identity and link, safe to show (the URL has its password masked). */
export interface TeamStatus {
  url: string;
  namespace: string;
  /** Where the data lives (server or cluster seeds, database, namespace; no credentials): equal
   *  for every process that shares it. The outbox keys its rows by this. */
  target: string;
  state: TeamLinkState;
  /** Why the last connection attempt or command failed, one line, or null. */
  lastError: string | null;
}

/** A shared remote store: the asynchronous contract plus its link. */
export interface TeamStore extends AsyncCcrStore {
  status(): TeamStatus;
  /** Resolves once the link is up; rejects with store_unavailable after `ms`. */
  ready(ms: number): Promise<void>;
  /** Calls `listener` on every later change of the link state, with a one-line reason. */
  onState(listener: (state: TeamLinkState, detail: string) => void): void;
  /** A round trip to the server: its product name and version. */
  probe(): Promise<{ server: string; version: string }>;
  /** Record a miss: a process that holds `handle` locally uploads it again (a flushed store heals). */
  want(handle: string): Promise<void>;
  /** Handles missed lately, at most `max` (wants expire on their own after a while). */
  wanted(max: number): Promise<string[]>;
  /** These wants are met: the handles are stored again. */
  unwant(handles: string[]): Promise<void>;
}
