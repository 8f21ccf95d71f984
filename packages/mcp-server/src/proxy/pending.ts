// The proxy's book of open requests: what the answer to each request still needs. Contract: a
// `tools/call` answer is rewritten by the transform of its tool, `tools/list` pages are rewritten
// (rewrite.ts: ours added on the last, a wrapped tool named like ours renamed
// `<server>__caveman_retrieve`), a cancelled request leaves the book (it gets no answer, not even
// ours at shutdown), a call of `caveman_retrieve` outside a batch is ours to answer, so it never
// enters the book, and a call of the renamed tool goes to the server under its own name. The
// server's name comes from its `initialize` answer.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logger.js";
import { classify, readableId } from "../transport/message.js";
import type { BudgetLimits } from "./budget.js";
import { renamedTool, rewriteCallResult, rewriteToolList, type TextTransform } from "./rewrite.js";

type Obj = Record<string, unknown>;

/** Every request the server has not answered yet; calls and lists say what their answer needs. */
type Pending = { kind: "call"; tool: string } | { kind: "list" } | { kind: "init" } | { kind: "other" };

/** What to do with a client message: answer it ourselves, or forward it (as `replace`, if set). */
export type Noted = { ours: true } | { ours: false; replace?: Obj };

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
  #retrieveTool: Tool | undefined;
  #serverName = "upstream";

  readonly #limits: BudgetLimits;

  constructor(options: {
    transform: TextTransform;
    retrieveTool: Tool | undefined;
    logger: Logger;
    limits?: BudgetLimits;
  }) {
    this.#transform = options.transform;
    this.#limits = options.limits ?? {};
    this.#retrieveTool = options.retrieveTool;
    this.#logger = options.logger;
  }

  /** Records what the answer to a client message needs, and whether it is ours to answer. */
  note(value: unknown, inBatch: boolean): Noted {
    const c = classify(value);
    if (c.kind === "notification" && c.message.method === "notifications/cancelled") {
      const target = idKey((c.message as { params?: Obj }).params?.requestId);
      if (target !== null) this.#pending.delete(target);
    }
    if (c.kind !== "request") return { ours: false };
    const key = idKey(c.message.id);
    const params = (c.message as { params?: Obj }).params;
    if (key === null) return { ours: false };
    const method = c.message.method;
    if (method === "tools/call" && typeof params?.name === "string") {
      // Ours to answer: it never reaches the server, so nothing waits for the server's answer.
      if (params.name === RETRIEVE && this.#retrieveTool && !inBatch) return { ours: true };
      if (this.#retrieveTool && params.name === renamedTool(this.#serverName, RETRIEVE)) {
        this.#pending.set(key, { kind: "call", tool: RETRIEVE });
        return { ours: false, replace: { ...(value as Obj), params: { ...params, name: RETRIEVE } } };
      }
      this.#pending.set(key, { kind: "call", tool: params.name });
    } else {
      const kind = method === "tools/list" ? "list" : method === "initialize" ? "init" : "other";
      this.#pending.set(key, { kind });
    }
    return { ours: false };
  }

  /** The server's answer to send instead of this one (maybe later), or null to forward its bytes. */
  rewrite(value: unknown): Obj | null | Promise<Obj | null> {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
    const msg = value as Obj;
    if (!("result" in msg || "error" in msg)) return null;
    const key = idKey(msg.id);
    const p = key === null ? undefined : this.#pending.get(key);
    if (!p || key === null) return null;
    this.#pending.delete(key);
    const failed = (err: unknown): null => {
      // A transform fault costs the compression, never the answer.
      this.#logger.warn(
        `proxy: rewrite failed, forwarding the original (${err instanceof Error ? err.message : String(err)})`,
      );
      return null;
    };
    try {
      if (p.kind === "call")
        return rewriteCallResult(msg, p.tool, this.#transform, this.#limits).catch(failed);
      if (p.kind === "init") {
        const info = (msg.result as { serverInfo?: { name?: unknown } } | undefined)?.serverInfo;
        if (typeof info?.name === "string" && info.name !== "") this.#serverName = info.name;
        return null;
      }
      if (p.kind === "other" || !this.#retrieveTool) return null;
      return rewriteToolList(msg, this.#retrieveTool, this.#serverName);
    } catch (err) {
      return failed(err);
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
