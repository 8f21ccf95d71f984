// The team store: the asynchronous CCR contract on Redis or Valkey, shared by every process and
// machine that names the same server and namespace. Contract, beyond the local stores':
// - keys are content-addressed under a namespace, `caveman:ccr:v2:<namespace>:{<handle>}` (+
//   `:meta`); the braces are a hash tag, so on a Redis Cluster both keys of a handle live in one
//   slot and every script (which touches only those two keys) runs on one node;
// - a put is write-once (SET … NX) and binary-safe; a get re-hashes the bytes and throws
//   store_corrupt (and quarantines the bad value) rather than return anything that does not
//   match — a later put of the right bytes heals the handle;
// - a handle lives while it is read or re-put within the idle window, and never past the maximum
//   age; after that it is handle_expired (terminal), distinct from a never-stored handle (null),
//   for `tombstoneMs` after it expired; times come from the injected clock, Redis TTLs back them up;
// - an original over `maxOriginalBytes` is refused with original_too_large before any I/O;
// - the server being away is store_unavailable, after bounded waits (see connection.ts).
import { createHash } from "node:crypto";
import { CcrStoreError } from "../errors.js";
import { handleFromSha256, isCanonicalHandle, requireHandle, sha256Hex } from "../handle.js";
import { acceptPut, now, positiveInt, resolvePolicy } from "../policy.js";
import type { TeamLinkState, TeamStatus, TeamStore } from "../team.js";
import { checkNamespace, parseTeamUrl, type TeamUrl, teamTarget } from "../teamUrl.js";
import type { CcrMeta, CcrRecord, CcrStats, OriginalInput, PutResult, StorePolicyOptions } from "../types.js";
import { openTeamConnection } from "./connection.js";

const DAY = 86_400_000;
const DEFAULT_TEAM_IDLE_MS = 7 * DAY;
const DEFAULT_TEAM_MAX_AGE_MS = 30 * DAY;
const DEFAULT_TEAM_MAX_ORIGINAL_BYTES = 32 * 1024 * 1024;
const DEFAULT_TOMBSTONE_MS = 7 * DAY;
const DEFAULT_GRACE_MS = 60_000;
/** A miss no holder answers within this long is forgotten. */
const WANT_TTL_MS = 10 * 60_000;

/** Options of the Redis/Valkey team store. */
export interface RedisStoreOptions extends StorePolicyOptions {
  /** `redis://…` or `rediss://…` (TLS), or its parsed form; see parseTeamUrl for the settings it may carry. */
  url: string | TeamUrl;
  /** Namespace, overriding the URL's `?namespace=`. */
  namespace?: string;
  /** Password, overriding the URL's (keeps the secret out of a URL that is shown or stored). */
  password?: string;
  /** Idle window (sliding on get and re-put). Default: the URL's `?idle=`, else 7 days. */
  idleMs?: number;
  /** Longest life of a stored original, read or not. Default: the URL's `?max_age=`, else 30 days. */
  maxAgeMs?: number;
  /** Largest original accepted. Default: the URL's `?max_bytes=`, else 32 MiB. */
  maxOriginalBytes?: number;
  /** How long an expired handle is still reported as expired rather than unknown. Default 7 days. */
  tombstoneMs?: number;
  /** Slack added to the Redis TTL backstop over the clock-computed deadline. Default 60 s. */
  graceMs?: number;
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
  maxBackoffMs?: number;
  /** PEM file of extra CAs for rediss:// with a private certificate authority. */
  tlsCaFile?: string;
  /** Called on every change of the link state with a one-line reason (password masked). */
  onState?: (state: TeamLinkState, detail: string) => void;
}

/** The data key and metadata key of a handle under a namespace (one hash slot: `{handle}`). */
export function teamKeys(namespace: string, handle: string): [string, string] {
  const data = `caveman:ccr:v2:${namespace}:{${handle}}`;
  return [data, `${data}:meta`];
}

/**
 * Open the team store. Returns at once: the connection is made in the background (see `ready`),
 * so a server can start serving while Redis is slow or away. Throws invalid_config on bad options.
 */
export function openRedisStore(opts: RedisStoreOptions): TeamStore {
  const parsed = typeof opts.url === "string" ? parseTeamUrl(opts.url) : opts.url;
  const url: TeamUrl = {
    ...parsed,
    ...(opts.namespace !== undefined ? { namespace: checkNamespace(opts.namespace) } : {}),
    ...(opts.password !== undefined ? { password: opts.password } : {}),
  };
  const policy = resolvePolicy({
    ...(opts.clock !== undefined ? { clock: opts.clock } : {}),
    ...(opts.budgetBytes !== undefined ? { budgetBytes: opts.budgetBytes } : {}),
    idleMs: opts.idleMs ?? url.idleMs ?? DEFAULT_TEAM_IDLE_MS,
  });
  const maxAgeMs = positiveInt("maxAgeMs", opts.maxAgeMs ?? url.maxAgeMs, DEFAULT_TEAM_MAX_AGE_MS);
  const maxOriginalBytes = positiveInt(
    "maxOriginalBytes",
    opts.maxOriginalBytes ?? url.maxOriginalBytes,
    DEFAULT_TEAM_MAX_ORIGINAL_BYTES,
  );
  const tombstoneMs = positiveInt("tombstoneMs", opts.tombstoneMs, DEFAULT_TOMBSTONE_MS);
  const graceMs = positiveInt("graceMs", opts.graceMs, DEFAULT_GRACE_MS);
  // Redis holds no byte budget of ours (its maxmemory does); the budget only caps one original.
  const sizePolicy = { ...policy, budgetBytes: Math.min(policy.budgetBytes, maxOriginalBytes) };
  const listeners: Array<(state: TeamLinkState, detail: string) => void> = [];
  if (opts.onState) listeners.push(opts.onState);
  const conn = openTeamConnection({
    url,
    ...(opts.commandTimeoutMs !== undefined ? { commandTimeoutMs: opts.commandTimeoutMs } : {}),
    ...(opts.connectTimeoutMs !== undefined ? { connectTimeoutMs: opts.connectTimeoutMs } : {}),
    ...(opts.maxBackoffMs !== undefined ? { maxBackoffMs: opts.maxBackoffMs } : {}),
    ...(opts.tlsCaFile !== undefined ? { tlsCaFile: opts.tlsCaFile } : {}),
    maxBulkBytes: maxOriginalBytes,
    onState: (state, detail) => {
      for (const listener of listeners) listener(state, detail);
    },
  });
  const keysOf = (handle: string) => teamKeys(url.namespace, handle);
  // Misses of this namespace, for the processes that hold the handles to upload them again.
  const wantedKey = `caveman:ccr:v2:${url.namespace}:{wanted}`;
  let closed = false;
  const open = (): void => {
    if (closed) throw new CcrStoreError("store_closed", "this team store was closed; open a new one");
  };
  /** ARGV[1..5] of every script: the caller's time and the lifetime rules. */
  const lifetime = (t: number): string[] =>
    [t, policy.idleMs, maxAgeMs, graceMs, tombstoneMs].map((n) => String(n));

  return {
    async put(original: OriginalInput, meta?: CcrMeta): Promise<PutResult> {
      open();
      const { prepared, meta: m } = acceptPut(original, meta, sizePolicy);
      const { bytes, sha256, handle } = prepared;
      const t = now(policy);
      const fields = [
        "sha256",
        sha256,
        "size",
        String(bytes.byteLength),
        "created",
        String(m.createdAt ?? t),
      ];
      if (m.kind !== null) fields.push("kind", m.kind);
      if (m.producer !== null) fields.push("producer", m.producer);
      if (m.tokensIn !== null) fields.push("tin", String(m.tokensIn));
      if (m.tokensOut !== null) fields.push("tout", String(m.tokensOut));
      // A copy: the caller may reuse its buffer before the socket has taken these bytes.
      const created = await conn.put(keysOf(handle), [...lifetime(t), Buffer.from(bytes), ...fields]);
      return { handle, created: created === 1 };
    },

    async get(handleText: string): Promise<CcrRecord | null> {
      open();
      const handle = requireHandle(handleText);
      const keys = keysOf(handle);
      const reply = await conn.get(keys, lifetime(now(policy)));
      const tag = reply[0]?.toString("latin1");
      if (tag === "unknown") return null;
      if (tag === "expired") {
        throw new CcrStoreError(
          "handle_expired",
          `${handle} was in the team store (namespace ${url.namespace}) but expired: unread for over ${policy.idleMs / 1000} s or older than ${maxAgeMs / 1000} s; compress the original again to get a live handle`,
        );
      }
      if (tag !== "ok" || reply.length < 2)
        throw corrupt(
          handle,
          tag === "orphan" ? "its metadata is missing" : "it failed verification earlier",
        );
      const bytes = reply[1]!;
      const fields = new Map<string, string>();
      for (let i = 2; i + 1 < reply.length; i += 2)
        fields.set(reply[i]!.toString("utf8"), reply[i + 1]!.toString("utf8"));
      const sha256 = sha256Hex(bytes);
      if (
        sha256 !== fields.get("sha256") ||
        handleFromSha256(sha256) !== handle ||
        Number(fields.get("size")) !== bytes.byteLength
      ) {
        const sha1 = createHash("sha1").update(bytes).digest("hex");
        await conn.quarantine(keys, sha1).catch(() => undefined);
        throw corrupt(handle, "its bytes do not match their hash");
      }
      return {
        handle,
        original: new Uint8Array(bytes),
        size: bytes.byteLength,
        sha256,
        kind: fields.get("kind") ?? null,
        producer: fields.get("producer") ?? null,
        tokensIn: numberOrNull(fields.get("tin")),
        tokensOut: numberOrNull(fields.get("tout")),
        createdAt: Number(fields.get("created")),
        lastAccessAt: Number(fields.get("last")),
        hits: Number(fields.get("hits")),
      };
    },

    async has(handleText: string): Promise<boolean> {
      open();
      const handle = requireHandle(handleText);
      return conn.has(keysOf(handle), lifetime(now(policy)));
    },

    async stats(): Promise<CcrStats> {
      open();
      // Entries held, as the local stores count them: live records whose TTL has not run out
      // (one past its deadline by the clock is held until a get buries it). SCAN walks the
      // namespace without blocking the server; this serves doctor and `stats`, not every call.
      const rows = await conn.fieldsOf(`caveman:ccr:v2:${url.namespace}:{ccr_*}:meta`, [
        "size",
        "hits",
        "state",
      ]);
      let entries = 0;
      let bytes = 0;
      let hits = 0;
      for (const [size, h, state] of rows) {
        if (state !== "live") continue;
        entries += 1;
        bytes += Number(size);
        hits += Number(h);
      }
      return {
        backend: "redis",
        writable: true,
        entries,
        bytes,
        hits,
        budgetBytes: policy.budgetBytes,
        idleMs: policy.idleMs,
      };
    },

    async close(): Promise<void> {
      closed = true;
      await conn.close();
    },

    status(): TeamStatus {
      return {
        url: url.masked,
        namespace: url.namespace,
        target: teamTarget(url),
        state: conn.state,
        lastError: conn.lastError,
      };
    },

    ready(ms: number): Promise<void> {
      return conn.whenReady(ms);
    },

    onState(listener) {
      listeners.push(listener);
    },

    probe() {
      open();
      return conn.probe();
    },

    async want(handleText: string): Promise<void> {
      open();
      await conn.wantAdd(wantedKey, requireHandle(handleText), WANT_TTL_MS);
    },

    async wanted(max: number): Promise<string[]> {
      open();
      return (await conn.wantList(wantedKey, max)).filter((h) => isCanonicalHandle(h));
    },

    async unwant(handles: string[]): Promise<void> {
      open();
      await conn.wantRemove(wantedKey, handles);
    },
  };
}

function corrupt(handle: string, why: string): CcrStoreError {
  return new CcrStoreError(
    "store_corrupt",
    `the team store's record for ${handle} cannot be trusted (${why}); it is not returned. Compress the original again to store good bytes`,
  );
}

function numberOrNull(text: string | undefined): number | null {
  return text === undefined ? null : Number(text);
}
