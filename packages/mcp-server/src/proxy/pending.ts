// The proxy's book of open requests: what the answer to each request still needs. Contract: a
// `tools/call` answer is rewritten by the transform of its tool, the last `tools/list` page gains
// `caveman_retrieve` (until the wrapped server turns out to have its own), a cancelled request
// leaves the book (it gets no answer, not even ours at shutdown), and a call of
// `caveman_retrieve` outside a batch is ours to answer, so it never enters the book.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logger.js";
import { classify, readableId } from "../transport/message.js";
import { addRetrieveTool, rewriteCallResult, type TextTransform } from "./rewrite.js";

type Obj = Record<string, unknown>;

/** Every request the server has not answered yet; calls and lists say what their answer needs. */
type Pending = { kind: "call"; tool: string } | { kind: "list" } | { kind: "other" };

export const RETRIEVE = "caveman_retrieve";

/** A request id as a map key (ids 1 and "1" differ), or null when it is not a readable id. */
function idKey(id: unknown): string | null {
  const r = readableId(id);
  return r === null ? null : JSON.stringify(r);
}

export class OpenRequests {
  readonly #pending = new Map<string, Pending>();
  readonly #transform: TextTransform;
  readonly #logger: Logger;
  #upstreamHasRetrieve = false;
  #retrieveTool: Tool | undefined;

  constructor(options: { transform: TextTransform; retrieveTool: Tool | undefined; logger: Logger }) {
    this.#transform = options.transform;
    this.#retrieveTool = options.retrieveTool;
    this.#logger = options.logger;
  }

  /** Records what the answer to a client message needs; true when the request is ours to answer. */
  note(value: unknown, inBatch: boolean): boolean {
    const c = classify(value);
    if (c.kind === "notification" && c.message.method === "notifications/cancelled") {
      const target = idKey((c.message as { params?: Obj }).params?.requestId);
      if (target !== null) this.#pending.delete(target);
    }
    if (c.kind !== "request") return false;
    const key = idKey(c.message.id);
    const params = (c.message as { params?: Obj }).params;
    if (key === null) return false;
    if (c.message.method === "tools/call" && typeof params?.name === "string") {
      // Ours to answer: it never reaches the server, so nothing waits for the server's answer.
      if (params.name === RETRIEVE && this.#retrieveTool && !this.#upstreamHasRetrieve && !inBatch)
        return true;
      this.#pending.set(key, { kind: "call", tool: params.name });
    } else {
      this.#pending.set(key, { kind: c.message.method === "tools/list" ? "list" : "other" });
    }
    return false;
  }

  /** The server's answer to send instead of this one, or null to forward its bytes. */
  rewrite(value: unknown): Obj | null {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
    const msg = value as Obj;
    if (!("result" in msg || "error" in msg)) return null;
    const key = idKey(msg.id);
    const p = key === null ? undefined : this.#pending.get(key);
    if (!p || key === null) return null;
    this.#pending.delete(key);
    try {
      if (p.kind === "call") return rewriteCallResult(msg, p.tool, this.#transform);
      if (p.kind === "other" || !this.#retrieveTool || this.#upstreamHasRetrieve) return null;
      const added = addRetrieveTool(msg, this.#retrieveTool);
      if (added.upstreamHasIt) {
        this.#upstreamHasRetrieve = true;
        this.#retrieveTool = undefined;
      }
      return added.message;
    } catch (err) {
      // A transform fault costs the compression, never the answer.
      this.#logger.warn(
        `proxy: rewrite failed, forwarding the original (${err instanceof Error ? err.message : String(err)})`,
      );
      return null;
    }
  }

  /** The request will get no answer from the server (its line was over the cap). */
  forget(id: unknown): void {
    const key = idKey(id);
    if (key !== null) this.#pending.delete(key);
  }

  /** Empty the book, returning the ids still waiting for an answer. */
  drain(): Array<string | number> {
    const ids = [...this.#pending.keys()].map((k) => JSON.parse(k) as string | number);
    this.#pending.clear();
    return ids;
  }
}
