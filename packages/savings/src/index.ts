// Everything exported here is the public API of @caveman/savings.
export type { SavingsEntry, SavingsEvent } from "./entry.js";
export { decodeEntry, encodeEntry, journalName } from "./entry.js";
export type { JournalOptions, SavingsJournal } from "./journal.js";
export { DEFAULT_JOURNAL_BYTES, JOURNAL_FILE, openJournal } from "./journal.js";
export type { KindSums, SavingsSummary, WindowSums } from "./summary.js";
export { startOfLocalDay, summarize } from "./summary.js";
