// Everything exported here is the public API of @caveman/mcp-server.

export type { FailureChipSink } from "./capture.js";
export { FailureCapture } from "./capture.js";
export type { DataOutcome, TextOutcome, ToolOutcome } from "./contract.js";
export { errorResult, structuredReading, textReading } from "./contract.js";
export type { ToolFaultCode, TransportFaultCode, WireCode } from "./errors.js";
export { McpServerError } from "./errors.js";
export type { Logger } from "./logger.js";
export { silentLogger } from "./logger.js";
export {
  type BudgetLimits,
  DEFAULT_BUDGET_TOKENS,
  HOST_MCP_LIMIT_TOKENS,
  OVER_LIMIT_BUDGET_TOKENS,
  type ResultBudget,
  resultBudget,
} from "./proxy/budget.js";
export { type KeepTransformOptions, keepTransform } from "./proxy/keepTransform.js";
export type { ProxyCloseReason, ProxyHandle, ProxyOptions } from "./proxy/relay.js";
export { startProxy } from "./proxy/relay.js";
export type { TextTransform } from "./proxy/rewrite.js";
export type { SpawnWrappedOptions, WrappedExit, WrappedServer } from "./proxy/spawn.js";
export { spawnWrapped } from "./proxy/spawn.js";
export { nonBlockingStderr, relayStderr, type StderrRelayOptions } from "./proxy/stderr.js";
export type {
  DataToolSpec,
  TextToolSpec,
  ToolAnnotations,
  ToolContext,
  ToolFamily,
  ToolSpec,
} from "./registry.js";
export { defineTool, ToolRegistry } from "./registry.js";
export type { ClientRoot, CloseReason, ServerHandle, StartServerOptions } from "./server.js";
export { negotiateProtocolVersion, startServer } from "./server.js";
export type { SessionStats } from "./session.js";
export { DISTINCT_RETRIEVE_LIMIT, Session } from "./session.js";
export type { CompressArgs, CompressionDeps, CompressReport } from "./tools/compression.js";
export { compressInput, renderCompress } from "./tools/compression.js";
export type { CavemanToolsOptions, Retrieved, StoreInfo } from "./tools/index.js";
export { createCavemanTools } from "./tools/index.js";
export {
  DEFAULT_MAX_INBOUND_BYTES,
  type StdioTransportOptions,
  type TransportHooks,
} from "./transport/options.js";
export { HardenedStdioTransport } from "./transport/stdio.js";
export {
  DEFAULT_ENGINE_TIMEOUT_MS,
  type Engine,
  type EngineFailure,
  type EngineOutcome,
  type EngineStats,
  engineBudgetMs,
  inlineEngine,
  MAX_BUDGET_FACTOR,
} from "./work/engine.js";
export type { EngineJob } from "./work/jobs.js";
export { EnginePool, type EnginePoolOptions } from "./work/pool.js";
export { engineRunner } from "./work/runner.js";
