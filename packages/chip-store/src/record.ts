// The chip record: its in-memory shape, its on-disk JSON, and the checks applied when reading it.
// The first five fields (`id`, `tool`, `args`, `err_msg`, `created_at`) are the original Go tool's,
// with the same names and meaning, so either program can read the other's failure chips. Fields
// added here are optional on read: a record without `kind` is a failure chip, one without `sha256`
// is accepted unverified (the Go tool never wrote one).

import { createHash } from "node:crypto";
import { ChipStoreError } from "./errors.js";
import { isValidChipId } from "./ids.js";
import { type Instant, parseInstant } from "./time.js";

export type ChipKind = "failure" | "content";

/** Where removed text came from: absolute path and 1-based inclusive lines before the edit. */
export interface ChipOrigin {
  path: string;
  start_line: number;
  end_line: number;
}

/** What `list` shows: everything but the payload. */
export interface ChipMeta {
  id: string;
  kind: ChipKind;
  tool: string;
  created_at: string;
  expires_at?: string;
  /** byte length of the payload (args JSON for failure chips, the content for content chips) */
  bytes: number;
  lines: number;
  preview: string;
  err_msg?: string;
  origin?: ChipOrigin;
  /** true when the content is not valid UTF-8 and is kept as bytes (base64 on disk) */
  binary: boolean;
  sha256: string;
}

/** A whole chip. Failure chips carry `args`; content chips carry `content` or, if binary, `data`. */
export interface Chip extends ChipMeta {
  args?: unknown;
  content?: string;
  data?: Uint8Array;
}

const RECORD_VERSION = 1;
const PREVIEW_CHARS = 80;

function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}

function countByteLines(data: Uint8Array): number {
  if (data.length === 0) return 0;
  let n = 0;
  for (const b of data) if (b === 10) n++;
  return data[data.length - 1] === 10 ? n : n + 1;
}

function makePreview(text: string): string {
  // Control characters are escaped so a preview never moves a terminal's cursor or breaks a line.
  const flat = text
    .slice(0, PREVIEW_CHARS * 4)
    .replace(/\s+/g, " ")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
    .replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`)
    .trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

/** The payload whose sha256 and size a record states. */
export interface Payload {
  argsJson?: string;
  content?: string;
  data?: Uint8Array;
}

export function describePayload(p: Payload): {
  bytes: number;
  lines: number;
  preview: string;
  sha256: string;
} {
  if (p.data) {
    return {
      bytes: p.data.length,
      lines: countByteLines(p.data),
      preview: `<binary ${p.data.length} bytes>`,
      sha256: sha256Hex(p.data),
    };
  }
  const text = p.content ?? p.argsJson ?? "";
  const utf8 = Buffer.from(text, "utf8");
  return { bytes: utf8.length, lines: countLines(text), preview: makePreview(text), sha256: sha256Hex(utf8) };
}

/** Serialises a chip to its on-disk JSON text. Content is stored raw, never as a JSON dump of itself. */
export function toDiskJson(chip: Chip): string {
  const rec: Record<string, unknown> = { id: chip.id, tool: chip.tool };
  if (chip.kind === "failure") rec.args = chip.args;
  if (chip.err_msg !== undefined) rec.err_msg = chip.err_msg;
  rec.created_at = chip.created_at;
  rec.v = RECORD_VERSION;
  rec.kind = chip.kind;
  if (chip.data) {
    rec.content_b64 = Buffer.from(chip.data).toString("base64");
    rec.binary = true;
  } else if (chip.content !== undefined) {
    rec.content = chip.content;
  }
  if (chip.origin) rec.origin = chip.origin;
  rec.bytes = chip.bytes;
  rec.lines = chip.lines;
  rec.preview = chip.preview;
  rec.sha256 = chip.sha256;
  if (chip.expires_at !== undefined) rec.expires_at = chip.expires_at;
  return JSON.stringify(rec);
}

function corrupt(file: string, why: string): ChipStoreError {
  return new ChipStoreError("chip_corrupt", `${file}: ${why}; the file was left in place for inspection`);
}

function readOrigin(v: unknown): ChipOrigin | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.path !== "string" || !Number.isInteger(o.start_line) || !Number.isInteger(o.end_line)) {
    return undefined;
  }
  return { path: o.path, start_line: o.start_line as number, end_line: o.end_line as number };
}

/**
 * Parses and verifies one on-disk record. `expectedId` comes from the file name: a record whose
 * id disagrees with its name is corrupt (it could shadow another chip).
 */
export function fromDiskJson(text: string, expectedId: string, file: string): { chip: Chip; order: Instant } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw corrupt(file, `not valid JSON (${(cause as Error).message})`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw corrupt(file, "not a JSON object");
  const r = raw as Record<string, unknown>;
  if (!isValidChipId(r.id) || r.id !== expectedId) throw corrupt(file, "id does not match the file name");
  if (typeof r.tool !== "string") throw corrupt(file, "missing tool");
  const order = parseInstant(r.created_at);
  if (!order) throw corrupt(file, "created_at is not an RFC 3339 time");
  const kind: ChipKind = r.kind === "content" ? "content" : "failure";

  const payload: Payload = {};
  if (kind === "failure") {
    if (!("args" in r)) throw corrupt(file, "failure chip without args");
    payload.argsJson = JSON.stringify(r.args);
  } else if (r.binary === true) {
    if (typeof r.content_b64 !== "string") throw corrupt(file, "binary chip without content_b64");
    payload.data = new Uint8Array(Buffer.from(r.content_b64, "base64"));
  } else {
    if (typeof r.content !== "string") throw corrupt(file, "content chip without content");
    payload.content = r.content;
  }
  const facts = describePayload(payload);
  if (typeof r.sha256 === "string" && r.sha256 !== facts.sha256) {
    throw corrupt(file, "checksum mismatch (sha256 of the payload differs from the record)");
  }
  const chip: Chip = {
    id: r.id,
    kind,
    tool: r.tool,
    created_at: r.created_at as string,
    binary: !!payload.data,
    ...facts,
  };
  if (typeof r.expires_at === "string") chip.expires_at = r.expires_at;
  if (typeof r.err_msg === "string") chip.err_msg = r.err_msg;
  const origin = readOrigin(r.origin);
  if (origin) chip.origin = origin;
  if (kind === "failure") chip.args = r.args;
  if (payload.content !== undefined) chip.content = payload.content;
  if (payload.data) chip.data = payload.data;
  return { chip, order };
}

/** Strips the payload: what `list` returns. `err_msg` is cut to a one-line summary. */
export function metaOf(chip: Chip): ChipMeta {
  const meta: ChipMeta = {
    id: chip.id,
    kind: chip.kind,
    tool: chip.tool,
    created_at: chip.created_at,
    bytes: chip.bytes,
    lines: chip.lines,
    preview: chip.preview,
    binary: chip.binary,
    sha256: chip.sha256,
  };
  if (chip.expires_at !== undefined) meta.expires_at = chip.expires_at;
  if (chip.err_msg !== undefined) meta.err_msg = makePreview(chip.err_msg);
  if (chip.origin) meta.origin = { ...chip.origin };
  return meta;
}

/** A copy the caller may change without changing the store's (args, origin and data are copied). */
export function copyChip(chip: Chip): Chip {
  const out: Chip = { ...chip };
  if (chip.origin) out.origin = { ...chip.origin };
  // A JSON round trip, not structuredClone: args are JSON values, and structuredClone overflows
  // the stack on args nested a few thousand levels deep that JSON handles.
  if (chip.kind === "failure") out.args = JSON.parse(JSON.stringify(chip.args) ?? "null");
  if (chip.data) out.data = new Uint8Array(chip.data);
  return out;
}
