// Chips on failure. Contract: the raw `tools/call` arguments are captured at the transport, by
// private request id, before any schema validation; when the answer for that id is a failure of
// any kind (protocol error, unknown tool, invalid arguments, handler error) the arguments are
// saved as a failure chip (the store decides if they are over its threshold) and the error text
// ends with `(saved as chip://<id>)`. A line that is not JSON but names `tools/call` is kept as a
// chip of the raw line. Saving a chip can fail; that only loses the note, never the answer.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "./logger.js";

/** The part of a chip store this module needs (structurally satisfied by @caveman/chip-store). */
export interface FailureChipSink {
  saveFailure(input: { tool: string; args: unknown; errMsg: string }): { chip: { id: string } | null };
}

interface Captured {
  tool: string;
  args: unknown;
}

export class FailureCapture {
  readonly #sink: FailureChipSink | undefined;
  readonly #logger: Logger;
  readonly #pending = new Map<number, Captured>();

  constructor(sink: FailureChipSink | undefined, logger: Logger) {
    this.#sink = sink;
    this.#logger = logger;
  }

  onRequest = (id: number, message: { method: string; params?: unknown }): void => {
    if (message.method !== "tools/call" || !this.#sink) return;
    const params = message.params as Record<string, unknown> | undefined;
    const tool = typeof params?.name === "string" ? params.name : "unknown";
    const args = params && "arguments" in params ? params.arguments : params;
    if (args === undefined) return; // nothing was sent, so nothing can be lost
    this.#pending.set(id, { tool, args });
  };

  onResponse = (id: number, message: JSONRPCMessage): JSONRPCMessage => {
    const captured = this.#pending.get(id);
    if (!captured) return message;
    this.#pending.delete(id);
    const msg = message as { error?: { message?: unknown }; result?: Record<string, unknown> };
    if (msg.error && typeof msg.error.message === "string") {
      const note = this.#save(captured.tool, captured.args, msg.error.message);
      return note
        ? ({ ...message, error: { ...msg.error, message: `${msg.error.message} ${note}` } } as JSONRPCMessage)
        : message;
    }
    const result = msg.result;
    if (result?.isError !== true || !Array.isArray(result.content)) return message;
    const content = result.content as Array<{ type?: unknown; text?: unknown }>;
    const idx = content.findIndex((b) => b.type === "text" && typeof b.text === "string");
    const errText = idx >= 0 ? String(content[idx]!.text) : "error";
    const note = this.#save(captured.tool, captured.args, errText);
    if (!note) return message;
    const patched = content.map((b, i) => (i === idx ? { ...b, text: `${errText} ${note}` } : b));
    if (idx < 0) patched.push({ type: "text", text: note });
    return { ...message, result: { ...result, content: patched } } as JSONRPCMessage;
  };

  /** A cancelled request gets no answer, so nothing of it is kept. */
  onCancelled = (id: number): void => {
    this.#pending.delete(id);
  };

  onUnparseable = (text: string): string | undefined => {
    if (!this.#sink || !/"method"\s*:\s*"tools\/call"/.test(text)) return undefined;
    const tool = /"name"\s*:\s*"([^"\\]{1,128})"/.exec(text)?.[1] ?? "unknown";
    return this.#save(tool, text, "the line was not valid JSON");
  };

  #save(tool: string, args: unknown, errMsg: string): string | undefined {
    if (!this.#sink) return undefined;
    try {
      const saved = this.#sink.saveFailure({ tool, args, errMsg });
      return saved.chip ? `(saved as chip://${saved.chip.id})` : undefined;
    } catch (err) {
      this.#logger.warn(
        `could not save a failure chip for ${tool}: ${err instanceof Error ? err.message : String(err)}`,
      );
      return undefined;
    }
  }
}
