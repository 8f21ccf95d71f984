// Turning one framed line into a JSON-RPC message, or into the reason it is not one.
// Contract: invalid UTF-8 is refused (never replaced with U+FFFD), a BOM and a trailing CR are
// dropped, unknown top-level keys are stripped (the SDK's strict schemas would otherwise drop the
// message silently), and everything handed on has passed the SDK's own JSONRPCMessageSchema, so
// the SDK can never receive a message it ignores without replying.
import { isUtf8 } from "node:buffer";
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

export type Decoded =
  | { kind: "skip" }
  | { kind: "json"; value: unknown; text: string }
  | { kind: "bad"; reason: string; text: string };

/** Decode one line's bytes to a JSON value. */
export function decodeLine(bytes: Buffer): Decoded {
  let start = 0;
  let end = bytes.length;
  if (end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  if (end > start && bytes[end - 1] === 0x0d) end -= 1;
  const body = bytes.subarray(start, end);
  if (!isUtf8(body)) {
    return { kind: "bad", reason: "line is not valid UTF-8 (refused, not altered)", text: "" };
  }
  const text = body.toString("utf8");
  if (text.trim() === "") return { kind: "skip" };
  try {
    return { kind: "json", value: JSON.parse(text), text };
  } catch (err) {
    return { kind: "bad", reason: err instanceof Error ? err.message : "not JSON", text };
  }
}

export type Classified =
  | { kind: "request"; message: JSONRPCMessage & { id: RequestId; method: string } }
  | { kind: "notification"; message: JSONRPCMessage & { method: string } }
  | { kind: "response"; message: JSONRPCMessage }
  | { kind: "invalid"; id: RequestId | null; reason: string };

/** Classify one parsed JSON value (not an array) as a JSON-RPC message. */
export function classify(value: unknown): Classified {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { kind: "invalid", id: null, reason: "a JSON-RPC message must be an object" };
  }
  const obj = value as Record<string, unknown>;
  const id = readableId(obj.id);
  if (obj.jsonrpc !== "2.0") return { kind: "invalid", id, reason: 'jsonrpc must be "2.0"' };
  let clean: Record<string, unknown>;
  let kind: "request" | "notification" | "response";
  if ("method" in obj) {
    if (typeof obj.method !== "string") return { kind: "invalid", id, reason: "method must be a string" };
    if ("id" in obj && id === null)
      return { kind: "invalid", id, reason: "id must be a string or an integer" };
    kind = "id" in obj ? "request" : "notification";
    clean = { jsonrpc: "2.0", method: obj.method };
    if (kind === "request") clean.id = obj.id;
    if ("params" in obj) {
      if (obj.params === null || typeof obj.params !== "object" || Array.isArray(obj.params)) {
        return { kind: "invalid", id, reason: "params must be an object" };
      }
      clean.params = obj.params;
    }
  } else if ("result" in obj || "error" in obj) {
    kind = "response";
    clean = { jsonrpc: "2.0" };
    if ("id" in obj) clean.id = obj.id;
    if ("result" in obj) clean.result = obj.result;
    else clean.error = obj.error;
  } else {
    return { kind: "invalid", id, reason: "no method, result or error" };
  }
  const checked = JSONRPCMessageSchema.safeParse(clean);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return {
      kind: "invalid",
      id,
      reason: issue ? `${issue.path.join(".") || "message"}: ${issue.message}` : "invalid",
    };
  }
  if (kind === "request")
    return { kind, message: clean as JSONRPCMessage & { id: RequestId; method: string } };
  if (kind === "notification") return { kind, message: clean as JSONRPCMessage & { method: string } };
  return { kind, message: clean as JSONRPCMessage };
}

/** An id is readable when it is a string or an integer; anything else answers with id null. */
export function readableId(id: unknown): RequestId | null {
  if (typeof id === "string") return id;
  if (typeof id === "number" && Number.isInteger(id)) return id;
  return null;
}

/** Best-effort id from the ends of a line too large to parse (SDK clients put `id` last). */
export function sniffId(head: string, tail: string): RequestId | null {
  const lead =
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*,/.exec(head);
  const last =
    /[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/.exec(tail);
  const raw = lead?.[1] ?? last?.[1];
  if (raw === undefined) return null;
  try {
    return readableId(JSON.parse(raw));
  } catch {
    return null;
  }
}
