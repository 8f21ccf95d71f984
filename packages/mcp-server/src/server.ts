// startServer: the SDK `Server` on our hardened transport. Contract: protocol negotiation never
// errors (any requested version, even a malformed initialize, gets a supported one back); every
// tools/call is answered by the registry (never a thrown handler); failures get chips; input EOF,
// a stream error, a hung-up client or `close()` all lead to the same orderly stop: intake stops,
// in-flight requests get `shutdownGraceMs` to finish and are then answered with a shutdown error,
// and `closed` resolves. The caller owns the stores and the process (signals, exit code).
import type { Readable, Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolResult,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { FailureCapture, type FailureChipSink } from "./capture.js";
import { errorResult } from "./contract.js";
import { EraGate } from "./era.js";
import { type Logger, silentLogger } from "./logger.js";
import { ToolRegistry, type ToolSpec } from "./registry.js";
import { limitLogger } from "./transport/logLimit.js";
import { DEFAULT_MAX_INBOUND_BYTES } from "./transport/options.js";
import { HardenedStdioTransport } from "./transport/stdio.js";

export type CloseReason = "eof" | "input_error" | "client_gone" | "requested";

export interface StartServerOptions {
  stdin: Readable;
  stdout: Writable;
  tools: ToolSpec[];
  version: string;
  name?: string;
  logger?: Logger;
  /** Where failed calls' arguments are kept; without it failures carry no chip note. */
  chips?: FailureChipSink;
  maxInboundBytes?: number;
  maxResultBytes?: number;
  /** How long in-flight requests may run after intake stops (default 5000 ms). */
  shutdownGraceMs?: number;
  instructions?: string;
  /**
   * Called with the client's MCP roots when a legacy client that declared the `roots` capability
   * has initialized, and again after each `notifications/roots/list_changed`. Without it the
   * server never asks. (The modern era has no server-to-client requests, so no roots there.)
   */
  onClientRoots?: (roots: ClientRoot[]) => void;
}

export interface ClientRoot {
  uri: string;
  name?: string;
}

export interface ServerHandle {
  /** Stop intake, let in-flight work finish (or answer it with a shutdown error), close. Idempotent. */
  close(reason?: CloseReason): Promise<void>;
  /** Resolves with the reason once the server has fully stopped. */
  readonly closed: Promise<CloseReason>;
  readonly toolNames: string[];
  /** Requests received and not yet answered. */
  readonly inFlight: number;
}

/** Lenient initialize: the SDK's own schema would answer -32602 to an odd `params`. */
const InitializeAnySchema = z.object({ method: z.literal("initialize"), params: z.unknown().optional() });

/** Lenient tools/call: a missing name or non-object arguments must be a tool error, not -32602/-32603. */
const CallAnySchema = z.object({ method: z.literal("tools/call"), params: z.unknown().optional() });

type CallHandler = (
  request: z.output<typeof CallAnySchema>,
  extra: { signal: AbortSignal },
) => Promise<CallToolResult>;

/** Negotiate: echo a supported version, else offer the newest one. Never an error. */
export function negotiateProtocolVersion(requested: unknown): string {
  return typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
}

const RootsChangedSchema = z.object({ method: z.literal("notifications/roots/list_changed") });
const InitializedSchema = z.object({ method: z.literal("notifications/initialized") });

/** Ask a legacy client for its roots after the handshake (and on change) when it offers them. */
function watchClientRoots(
  server: Server,
  capabilities: () => unknown,
  onRoots: (roots: ClientRoot[]) => void,
  logger: Logger,
): void {
  // Answers can overtake each other (a change notification right after initialized): only the
  // answer to the latest question counts.
  let asked = 0;
  const ask = (): void => {
    const caps = capabilities();
    if (caps === null || typeof caps !== "object" || !("roots" in caps)) return;
    const question = ++asked;
    server
      .listRoots()
      .then((answer) => {
        if (question !== asked) return;
        onRoots(answer.roots.map((r) => ({ uri: r.uri, ...(r.name ? { name: r.name } : {}) })));
      })
      .catch((err: unknown) =>
        logger.warn(`roots/list failed: ${err instanceof Error ? err.message : String(err)}`),
      );
  };
  // The SDK runs a notification's handler a few microtasks before a request's, so an
  // `initialized` written right behind `initialize` (same chunk) would be seen before the
  // initialize handler kept the client's capabilities: ask once the pending handlers have run.
  const askSoon = (): void => void setImmediate(ask);
  server.setNotificationHandler(InitializedSchema, askSoon);
  server.setNotificationHandler(RootsChangedSchema, askSoon);
}

export async function startServer(options: StartServerOptions): Promise<ServerHandle> {
  // Every diagnostic passes one limiter: a client flooding bad input cannot flood stderr.
  const logger = limitLogger(options.logger ?? silentLogger);
  const registry = new ToolRegistry({
    tools: options.tools,
    logger,
    maxResultBytes: options.maxResultBytes ?? DEFAULT_MAX_INBOUND_BYTES,
  });
  const capture = new FailureCapture(options.chips, logger);
  const capabilities = { tools: { listChanged: false } };
  const serverInfo = { name: options.name ?? "caveman-mcp", version: options.version };
  const server = new Server(serverInfo, {
    capabilities,
    ...(options.instructions ? { instructions: options.instructions } : {}),
  });

  let resolveClosed!: (reason: CloseReason) => void;
  const closed = new Promise<CloseReason>((r) => {
    resolveClosed = r;
  });
  let closing: Promise<void> | undefined;
  const graceMs = options.shutdownGraceMs ?? 5000;

  const transport = new HardenedStdioTransport({
    stdin: options.stdin,
    stdout: options.stdout,
    maxInboundBytes: options.maxInboundBytes ?? DEFAULT_MAX_INBOUND_BYTES,
    onRequest: capture.onRequest,
    onResponse: capture.onResponse,
    onCancelled: capture.onCancelled,
    onUnparseable: capture.onUnparseable,
    onInputClosed: (why) => void close(why === "eof" ? "eof" : "input_error"),
    onOutputClosed: () => void close("client_gone"),
  });

  const close = (reason: CloseReason = "requested"): Promise<void> => {
    closing ??= (async () => {
      transport.stopIntake();
      // A client that hung up cannot read answers; do not wait for work nobody will see.
      const finished = reason === "client_gone" ? false : await transport.whenIdle(graceMs);
      if (!finished && transport.inFlight > 0)
        logger.warn(`stopping with ${transport.inFlight} request(s) unfinished`);
      try {
        await server.close();
      } catch (err) {
        logger.error(`close failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      resolveClosed(reason);
    })();
    return closing;
  };

  server.onerror = (err) => logger.warn(`protocol: ${err.message}`);
  // Our lenient initialize replaces the SDK's, so the client's capabilities are kept here.
  let clientCapabilities: unknown;
  server.setRequestHandler(InitializeAnySchema, (request) => {
    const params = (request.params ?? {}) as { protocolVersion?: unknown; capabilities?: unknown };
    clientCapabilities = params.capabilities;
    return {
      protocolVersion: negotiateProtocolVersion(params.protocolVersion),
      capabilities,
      serverInfo,
      ...(options.instructions ? { instructions: options.instructions } : {}),
    };
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: registry.listTools() }));
  // Server.setRequestHandler wraps tools/call in the SDK's strict CallToolRequestSchema, which
  // answers `{"arguments":"..."}` or a missing name with a protocol error the model never sees.
  // Registering on the base Protocol keeps our registry the only judge of a call (it always
  // returns a well-formed CallToolResult, which the wrapper would otherwise re-validate).
  const onCall: CallHandler = (request, extra) => {
    const params = request.params;
    if (params === null || typeof params !== "object" || Array.isArray(params)) {
      return Promise.resolve(
        errorResult("cave_invalid_arguments", "tools/call needs params: { name, arguments }"),
      );
    }
    const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
    if (typeof name !== "string") {
      return Promise.resolve(
        errorResult(
          "cave_invalid_arguments",
          `tools/call needs params.name (a string); available: ${registry.names.join(", ")}`,
        ),
      );
    }
    return registry.callTool(name, args, { signal: extra.signal });
  };
  (
    Protocol.prototype.setRequestHandler as (
      this: Server,
      schema: typeof CallAnySchema,
      h: CallHandler,
    ) => void
  ).call(server, CallAnySchema, onCall);
  if (options.onClientRoots)
    watchClientRoots(server, () => clientCapabilities, options.onClientRoots, logger);
  await server.connect(
    new EraGate({
      inner: transport,
      serverInfo,
      capabilities,
      ...(options.instructions ? { instructions: options.instructions } : {}),
    }),
  );

  return {
    close,
    closed,
    toolNames: registry.names,
    get inFlight() {
      return transport.inFlight;
    },
  };
}
