// A scripted Messages API on loopback, standing in for the model. Contract: every request body is
// logged; a request of the main conversation (it offers tools, which side requests such as title
// generation do not) is answered by the script, chosen by how many assistant turns the request
// already holds, so a retried request gets the same answer; every other request gets a harmless
// short text, in SSE when `stream` is true. count_tokens gets a plausible count; any other path is
// a 404 in the API's error shape. The server listens on 127.0.0.1 only.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One block of what the model received as a tool result (Claude Code sends text blocks). */
interface ResultBlock {
  type: string;
  text?: string;
}

/** A tool result as it reached the model, found in the request after the tool call. */
export interface Received {
  toolUseId: string;
  isError: boolean;
  /** All text the model got for this call, blocks joined with "\n". */
  text: string;
  blocks: ResultBlock[];
}

export type ScriptedBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown> };

/**
 * One assistant turn. `results` holds every tool result the model has received so far, by the
 * tool_use id the script gave (`t<turn>_<index>`), so a later turn can use an earlier answer
 * (a chip id, a handle).
 */
export type ScriptedTurn = (results: ReadonlyMap<string, Received>) => ScriptedBlock[];

interface LoggedRequest {
  path: string;
  main: boolean;
  body: Record<string, unknown>;
}

export interface FakeModel {
  url: string;
  requests: LoggedRequest[];
  /** Scripted turns that threw; the conversation was ended there with a text answer. */
  scriptErrors: string[];
  /** Tool results of the main conversation as the model received them, by tool_use id. */
  results(): Map<string, Received>;
  close(): Promise<void>;
}

interface Message {
  role: string;
  content: unknown;
}

function isMain(body: Record<string, unknown>): boolean {
  // Side requests (title, summaries, quota probes) carry no tools; the agent loop always does.
  return Array.isArray(body.tools) && body.tools.length > 0;
}

function blocksOf(content: unknown): Array<Record<string, unknown>> {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [];
}

/** Tool results found in a conversation's user messages. */
function toolResults(messages: Message[]): Map<string, Received> {
  const out = new Map<string, Received>();
  for (const m of messages) {
    if (m.role !== "user") continue;
    for (const b of blocksOf(m.content)) {
      if (b.type !== "tool_result" || typeof b.tool_use_id !== "string") continue;
      const blocks = blocksOf(b.content).map((c) => ({
        type: String(c.type),
        ...(typeof c.text === "string" ? { text: c.text } : {}),
      }));
      out.set(b.tool_use_id, {
        toolUseId: b.tool_use_id,
        isError: b.is_error === true,
        text: blocks.map((c) => c.text ?? `[${c.type}]`).join("\n"),
        blocks,
      });
    }
  }
  return out;
}

function assistantTurns(messages: Message[]): number {
  return messages.filter((m) => m.role === "assistant").length;
}

function toWire(turn: number, blocks: ScriptedBlock[]): Array<Record<string, unknown>> {
  return blocks.map((b, i) =>
    b.type === "text"
      ? { type: "text", text: b.text }
      : { type: "tool_use", id: `t${turn}_${i}`, name: b.name, input: b.input },
  );
}

function sse(res: ServerResponse, model: string, content: Array<Record<string, unknown>>): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event: string, data: Record<string, unknown>) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  const stop = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  send("message_start", {
    message: {
      id: `msg_${Date.now()}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  content.forEach((b, index) => {
    if (b.type === "text") {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      send("content_block_delta", { index, delta: { type: "text_delta", text: b.text } });
    } else {
      send("content_block_start", { index, content_block: { ...b, input: {} } });
      send("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) },
      });
    }
    send("content_block_stop", { index });
  });
  send("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  send("message_stop", {});
  res.end();
}

function reply(res: ServerResponse, body: Record<string, unknown>, content: Array<Record<string, unknown>>) {
  const model = typeof body.model === "string" ? body.model : "claude-scripted";
  if (body.stream === true) return sse(res, model, content);
  const stop = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: `msg_${Date.now()}`,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    }),
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the fake API; `script[n]` answers the main conversation's request with n assistant turns. */
export async function startFakeModel(script: ScriptedTurn[]): Promise<FakeModel> {
  const requests: LoggedRequest[] = [];
  const scriptErrors: string[] = [];
  /** A throwing turn ends the conversation (a 5xx would only make the CLI retry with backoff). */
  const answer = (turn: number, messages: Message[]): Array<Record<string, unknown>> => {
    const step = script[turn];
    if (!step) return [{ type: "text", text: "script finished" }];
    try {
      return toWire(turn, step(toolResults(messages)));
    } catch (err) {
      scriptErrors.push(`turn ${turn}: ${err instanceof Error ? err.message : String(err)}`);
      return [{ type: "text", text: "script error" }];
    }
  };
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        body = { unparsed: raw };
      }
      const path = (req.url ?? "/").split("?")[0]!;
      const main = req.method === "POST" && path === "/v1/messages" && isMain(body);
      requests.push({ path, main, body });
      if (req.method === "POST" && path === "/v1/messages/count_tokens") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
        return;
      }
      if (req.method !== "POST" || path !== "/v1/messages") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: path } }));
        return;
      }
      if (!main) return reply(res, body, [{ type: "text", text: "ok" }]);
      const messages = (body.messages ?? []) as Message[];
      reply(res, body, answer(assistantTurns(messages), messages));
    })().catch((err: unknown) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    scriptErrors,
    results() {
      const last = [...requests].reverse().find((r) => r.main);
      return toolResults(((last?.body.messages ?? []) as Message[]) ?? []);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
