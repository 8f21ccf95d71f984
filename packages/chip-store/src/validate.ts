// Pure checks of caller input to the save methods; each returns the cleaned value or throws
// chip_invalid_input, so nothing is saved from bad input.

import { ChipStoreError } from "./errors.js";
import type { ChipOrigin } from "./record.js";

export function checkTool(tool: unknown): string {
  if (typeof tool !== "string" || tool.length === 0 || tool.length > 256) {
    throw new ChipStoreError(
      "chip_invalid_input",
      "tool must be a non-empty string of at most 256 characters",
    );
  }
  return tool;
}

export function checkOrigin(origin: ChipOrigin): ChipOrigin {
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
