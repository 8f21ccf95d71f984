// The one place where library errors become wire errors. Contract: a known domain error maps to
// `{ code, message }` with a family prefix — `be_` for edit-ops and chip-store errors, `cave_` for
// the CCR store — and a message without the library's own code prefix; anything unknown returns
// undefined and the registry reports it as `cave_tool_panicked`.
import { CcrStoreError } from "@caveman/ccr-store";
import { ChipStoreError } from "@caveman/chip-store";
import { EditError } from "@caveman/edit-ops";
import { McpServerError } from "../errors.js";

export interface WireError {
  code: string;
  message: string;
}

function bare(message: string, code: string): string {
  return message.startsWith(`${code}: `) ? message.slice(code.length + 2) : message;
}

export function toWireError(err: unknown): WireError | undefined {
  if (err instanceof McpServerError) return { code: err.code, message: err.message };
  if (err instanceof EditError) return { code: `be_${err.code}`, message: bare(err.message, err.code) };
  if (err instanceof ChipStoreError) return { code: `be_${err.code}`, message: bare(err.message, err.code) };
  if (err instanceof CcrStoreError) return { code: `cave_${err.code}`, message: bare(err.message, err.code) };
  return undefined;
}
