// Chip ids: 6 lowercase hex characters from a cryptographic source, 12 when 6 keep colliding.
// Ids are validated before they are used to build a path, so an id can never name a file
// outside the chip directory.

const ID_PATTERN = /^[0-9a-f]{6}([0-9a-f]{6})?$/;

export type RandomBytes = (size: number) => Uint8Array;

export function isValidChipId(id: unknown): id is string {
  return typeof id === "string" && ID_PATTERN.test(id);
}

export function newChipId(random: RandomBytes, long: boolean): string {
  const size = long ? 6 : 3;
  const bytes = random(size);
  if (bytes.length < size)
    throw new RangeError(`random source returned ${bytes.length} bytes, wanted ${size}`);
  let out = "";
  for (let i = 0; i < size; i++) out += (bytes[i] as number).toString(16).padStart(2, "0");
  return out;
}

/**
 * Accepts `abc123`, `chip://abc123` and surrounding whitespace; returns the bare id or null.
 * The MCP server shows `chip://<id>`, so callers may pass it back verbatim.
 */
export function parseChipRef(ref: string): string | null {
  const bare = ref.trim().replace(/^chip:\/\//, "");
  return isValidChipId(bare) ? bare : null;
}
