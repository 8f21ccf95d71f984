// Public API of @caveman/ccr-store: everything exported here is public; nothing here loads native code.
export { type AnyCcrStore, type AsyncCcrStore, toAsync } from "./async.js";
export { CcrStoreError, type CcrStoreErrorCode, isCcrStoreError } from "./errors.js";
export {
  computeHandle,
  HANDLE_HEX_LENGTH,
  isCanonicalHandle,
  originalBytes,
  parseHandle,
  prepareOriginal,
  requireHandle,
} from "./handle.js";
export { prepareStoreLocation, type StoreAccess } from "./location.js";
export { type MemoryStoreOptions, openMemoryStore } from "./memory.js";
export { type Outbox, openMemoryOutbox, openQueueingStore, type QueueingStore } from "./outbox.js";
export { DEFAULT_BUDGET_BYTES, DEFAULT_IDLE_MS, MAX_ORIGINAL_BYTES } from "./policy.js";
export type { TeamLinkState, TeamStatus, TeamStore } from "./team.js";
export { parseTeamUrl, type TeamUrl, teamTarget } from "./teamUrl.js";
export { originalText } from "./text.js";
export {
  openTieredStore,
  type TieredLogger,
  type TieredStats,
  type TieredStore,
  type TieredStoreOptions,
} from "./tiered.js";
export type {
  CcrMeta,
  CcrRecord,
  CcrStats,
  CcrStore,
  Clock,
  OriginalInput,
  PreparedOriginal,
  PutResult,
  StorePolicyOptions,
} from "./types.js";
