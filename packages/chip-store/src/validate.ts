// Pure checks of caller input to the save methods; each returns the cleaned value or throws
// chip_invalid_input (or chip_too_large), so nothing is saved from bad input.

import { ChipStoreError } from "./errors.js";
import type { SaveContentInput, SaveFailureInput } from "./options.js";
import type { Chip, ChipOrigin, Payload } from "./record.js";

const utf8Strict = new TextDecoder("utf-8", { fatal: true });

/** What a save stores: the payload, and the record fields that come with it. */
interface SaveParts {
  tool: string;
  payload: Payload;
  extra: Partial<Chip>;
}

/** A failed call's arguments as a chip, or null when their JSON is at or under `thresholdBytes`. */
export function failureParts(
  input: SaveFailureInput,
  thresholdBytes: number,
  maxChipBytes: number,
): SaveParts | null {
  const tool = checkTool(input.tool);
  let argsJson: string | undefined;
  try {
    argsJson = JSON.stringify(input.args);
  } catch (cause) {
    throw new ChipStoreError(
      "chip_invalid_input",
      `args cannot be saved as JSON (${(cause as Error).message}); pass plain JSON values`,
      { cause },
    );
  }
  if (argsJson === undefined) {
    throw new ChipStoreError("chip_invalid_input", "args is undefined or a function; pass a JSON value");
  }
  if (Buffer.byteLength(argsJson, "utf8") <= thresholdBytes) return null;
  const extra: Partial<Chip> = { args: JSON.parse(argsJson) };
  if (input.errMsg !== undefined) {
    if (typeof input.errMsg !== "string") {
      throw new ChipStoreError("chip_invalid_input", "errMsg must be a string; nothing was saved");
    }
    if (Buffer.byteLength(input.errMsg, "utf8") > maxChipBytes) {
      throw new ChipStoreError(
        "chip_too_large",
        `errMsg is over the chip limit of ${maxChipBytes} bytes; shorten it; nothing was saved`,
      );
    }
    extra.err_msg = input.errMsg;
  }
  return { tool, payload: { argsJson }, extra };
}

/** Text or bytes as a content chip; bytes that are not UTF-8 are kept exactly (as data). */
export function contentParts(input: SaveContentInput): SaveParts {
  const tool = checkTool(input.tool);
  const payload: Payload = {};
  if (typeof input.content === "string") {
    payload.content = input.content;
  } else if (input.content instanceof Uint8Array) {
    try {
      payload.content = utf8Strict.decode(input.content);
    } catch {
      payload.data = new Uint8Array(input.content);
    }
  } else {
    throw new ChipStoreError("chip_invalid_input", "content must be a string or a Uint8Array");
  }
  const extra: Partial<Chip> = {};
  if (input.origin !== undefined) extra.origin = checkOrigin(input.origin);
  return { tool, payload, extra };
}

function checkTool(tool: unknown): string {
  if (typeof tool !== "string" || tool.length === 0 || tool.length > 256) {
    throw new ChipStoreError(
      "chip_invalid_input",
      "tool must be a non-empty string of at most 256 characters",
    );
  }
  return tool;
}

function checkOrigin(origin: ChipOrigin): ChipOrigin {
  const ok =
    typeof origin === "object" &&
    origin !== null &&
    typeof origin.path === "string" &&
    origin.path !== "" &&
    Number.isSafeInteger(origin.start_line) &&
    Number.isSafeInteger(origin.end_line) &&
    origin.start_line >= 0 &&
    origin.end_line >= origin.start_line;
  if (!ok) {
    throw new ChipStoreError(
      "chip_invalid_input",
      "origin must be { path, start_line, end_line } with whole numbers and start_line <= end_line",
    );
  }
  return { path: origin.path, start_line: origin.start_line, end_line: origin.end_line };
}
