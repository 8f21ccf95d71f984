// Typed errors of @caveman/chip-store. Every error carries a stable snake_case `code` that callers
// (the MCP server, CLIs) may show to users or match on; messages say what to do next.

export type ChipErrorCode =
  | "chip_not_found"
  | "chip_invalid_id"
  | "chip_corrupt"
  | "chip_invalid_input"
  | "chip_too_large"
  | "chip_binary"
  | "chip_no_field"
  | "chip_invalid_option"
  | "chip_io_failed"
  | "chip_unsafe_dir";

export class ChipStoreError extends Error {
  readonly code: ChipErrorCode;

  constructor(code: ChipErrorCode, message: string, options?: ErrorOptions) {
    super(`${code}: ${message}`, options);
    this.name = "ChipStoreError";
    this.code = code;
  }
}

export function isChipStoreError(value: unknown): value is ChipStoreError {
  return value instanceof ChipStoreError;
}
