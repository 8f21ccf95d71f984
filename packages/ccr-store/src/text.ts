// Turning stored bytes back into text without ever altering them: a record whose bytes are not
// valid UTF-8 has no exact string form, so the caller gets null and must use the bytes.
import type { CcrRecord } from "./types.js";

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The original as a string when its bytes are valid UTF-8 (a BOM is kept), else null. */
export function originalText(record: Pick<CcrRecord, "original">): string | null {
  try {
    return strict.decode(record.original);
  } catch {
    return null;
  }
}
