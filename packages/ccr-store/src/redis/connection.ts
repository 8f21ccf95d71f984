// The one module that talks to the network: the ioredis client of the configured team store
// (one server, or a Redis Cluster) and nothing else. Contract: it never blocks the event loop and never waits without a
// bound — commands fail after `commandTimeoutMs` (and a timeout drops the link, which reconnects,
// so nothing queues up behind a stalled server), a command issued while the link is down waits
// at most that long for the reconnect, and reconnects back off exponentially (with jitter) up to
// `maxBackoffMs`, forever, so a long outage heals by itself. No offline queue: nothing piles up in
// memory while Redis is away. Every failure comes out as a CcrStoreError (store_unavailable with
// what to do, store_full for an out-of-memory server); the password is never part of a message.
// State changes (first contact, lost, back) are reported once each through `onState`. Every
// reply is bounded by the protocol's lengths before it is buffered (replyGuard.ts): a bulk string
// over `maxReplyBytes`' cap closes the link. On a cluster, one primary being down fails only the
// handles of its slots (store_unavailable); the link stays up for the others.
import { CcrStoreError } from "../errors.js";
import type { TeamLinkState } from "../team.js";
import type { TeamUrl } from "../teamUrl.js";
import { openClient } from "./client.js";
import { ReplyRefused } from "./connector.js";

export interface TeamConnectionOptions {
  url: TeamUrl;
  /** Bound on every command, and on the wait for a reconnect before one. Default 2000 ms. */
  commandTimeoutMs?: number;
  /** Bound on one TCP/TLS connect. Default 2000 ms. */
  connectTimeoutMs?: number;
  /** Longest pause between reconnect attempts. Default 2000 ms. */
  maxBackoffMs?: number;
  /** PEM bundle of extra certificate authorities for rediss:// (a private CA). */
  tlsCaFile?: string;
  /** Called on each state change with a one-line reason (masked URL, never the password). */
  onState?: (state: TeamLinkState, detail: string) => void;
  /** The largest bulk string a reply may announce (the largest original). Default 32 MiB. */
  maxBulkBytes?: number;
}

/** Metadata fields and framing a reply carries besides the original's bytes. */
const REPLY_SLACK = 1 << 20;

/** A live link to the team store; every method is bounded in time and rejects with CcrStoreError. */
export interface TeamConnection {
  readonly state: TeamLinkState;
  /** The last connection error, one line, or null. */
  readonly lastError: string | null;
  /** Resolves once the link is ready; rejects with store_unavailable after `ms`. */
  whenReady(ms: number): Promise<void>;
  put(keys: [string, string], args: Array<string | Uint8Array>): Promise<number>;
  get(keys: [string, string], args: string[]): Promise<Buffer[]>;
  has(keys: [string, string], args: string[]): Promise<boolean>;
  quarantine(keys: [string, string], sha1: string): Promise<void>;
  /** HMGET `names` of every key matching `pattern`, on every node (SCAN, so no server is blocked). */
  fieldsOf(pattern: string, names: string[]): Promise<Array<Array<string | null>>>;
  /** A set of wanted handles under `key`: add one (the set lives `ttlMs` past its last add). */
  wantAdd(key: string, handle: string, ttlMs: number): Promise<void>;
  wantList(key: string, max: number): Promise<string[]>;
  wantRemove(key: string, handles: string[]): Promise<void>;
  /** PING round trip and the server's name and version (INFO server). */
  probe(): Promise<{ server: string; version: string }>;
  close(): Promise<void>;
}

export function openTeamConnection(opts: TeamConnectionOptions): TeamConnection {
  const { url } = opts;
  const commandTimeoutMs = opts.commandTimeoutMs ?? 2000;
  const maxBackoffMs = opts.maxBackoffMs ?? 2000;
  const where = url.masked;
  let state: TeamLinkState = "connecting";
  let lastError: string | null = null;
  let everReady = false;
  const waiters = new Set<() => void>();

  const maxBulkBytes = opts.maxBulkBytes ?? 32 * 1024 * 1024;
  const { client, scripted, nodes, cluster } = openClient({
    url,
    commandTimeoutMs,
    connectTimeoutMs: opts.connectTimeoutMs ?? 2000,
    maxBackoffMs,
    tlsCaFile: opts.tlsCaFile,
    limits: {
      maxBulkBytes: maxBulkBytes + REPLY_SLACK,
      maxReplyBytes: maxBulkBytes + 2 * REPLY_SLACK,
      maxElements: 1 << 20,
    },
  });

  const setState = (next: TeamLinkState, detail: string): void => {
    if (next === state) return;
    state = next;
    if (next === "ready") {
      for (const wake of waiters) wake();
      waiters.clear();
    }
    opts.onState?.(next, detail);
  };
  client.on("ready", () => {
    const wasDown = everReady;
    everReady = true;
    lastError = null;
    setState("ready", wasDown ? `team store ${where} is reachable again` : `team store ${where} connected`);
  });
  // Without an "error" listener an EventEmitter error would crash the process.
  // Operations waiting on the link: a lost link fails them now, with why (ioredis would not).
  const inflight = new Set<(err: Error) => void>();
  const abortInflight = (): void => {
    const err = new Error(lastError ?? "the connection was lost");
    for (const abort of inflight) abort(err);
    inflight.clear();
  };
  const onError = (err: Error): void => {
    lastError = describe(err, url.tls);
    if (state === "connecting") {
      setState("down", `team store ${where} is unreachable (${lastError}); retrying`);
    } else if (err instanceof ReplyRefused && state === "ready") {
      setState("down", `team store ${where}: ${lastError}; reconnecting`);
    }
  };
  client.on("error", onError);
  // A cluster reports a node's faults apart; the link stays up for the other nodes' slots.
  client.on("node error", (err: Error) => {
    lastError = describe(err, url.tls);
    if (err instanceof ReplyRefused) {
      onError(err);
      abortInflight();
    }
  });
  client.on("close", () => {
    abortInflight();
    if (state === "ready") setState("down", `team store ${where} connection lost; retrying`);
  });
  client.connect().catch(() => {
    // The "error" listener has recorded why; reconnects continue on their own.
  });

  const whenReady = (ms: number): Promise<void> => {
    if (state === "ready") return Promise.resolve();
    if (state === "closed") return Promise.reject(closedError());
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(wake);
        reject(unavailable(where, lastError ?? `no connection within ${ms} ms`));
      }, ms);
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      waiters.add(wake);
    });
  };

  /** Run one command once the link is usable; any failure becomes a typed error. */
  const run = async <T>(command: () => Promise<T>): Promise<T> => {
    await whenReady(commandTimeoutMs);
    let abort: ((err: Error) => void) | undefined;
    const lost = new Promise<never>((_, reject) => {
      abort = reject;
    });
    inflight.add(abort!);
    try {
      return await Promise.race([bounded(command(), commandTimeoutMs), lost]);
    } catch (err) {
      if (isTimeout(err) && state === "ready" && !cluster) {
        // A timed-out command stays queued on the socket, with its bytes, until the server answers:
        // behind a stalled or black-holed server every later command would pile up there too.
        // Judge the link lost and make a fresh one; puts stop waiting on it meanwhile.
        lastError = describe(err, url.tls);
        setState("down", `team store ${where} stopped answering (${lastError}); reconnecting`);
        client.disconnect(true);
      }
      throw fromRedisError(err, where, url.tls);
    } finally {
      inflight.delete(abort!);
    }
  };

  return {
    get state() {
      return state;
    },
    get lastError() {
      return lastError;
    },
    whenReady,
    put: (keys, args) => run(() => scripted.ccrPutBuffer(...keys, ...args)),
    get: (keys, args) => run(() => scripted.ccrGetBuffer(...keys, ...args)),
    has: (keys, args) => run(async () => (await scripted.ccrHasBuffer(...keys, ...args)) === 1),
    quarantine: (keys, sha1) => run(async () => void (await scripted.ccrQuarantineBuffer(...keys, sha1))),
    fieldsOf: async (pattern, names) => {
      await whenReady(commandTimeoutMs);
      const rows: Array<Array<string | null>> = [];
      // Each node walks its own keys and reads them in one pipeline: they are all its slots'.
      for (const node of nodes()) {
        try {
          let cursor = "0";
          do {
            const [next, keys] = await bounded(
              node.scan(cursor, "MATCH", pattern, "COUNT", 1000),
              commandTimeoutMs,
            );
            cursor = next;
            if (keys.length === 0) continue;
            const pipeline = node.pipeline();
            for (const key of keys) pipeline.hmget(key, ...names);
            for (const [err, value] of (await bounded(pipeline.exec(), commandTimeoutMs)) ?? []) {
              if (err) throw err;
              rows.push(value as Array<string | null>);
            }
          } while (cursor !== "0");
        } catch (err) {
          throw fromRedisError(err, where, url.tls);
        }
      }
      return rows;
    },
    wantAdd: (key, handle, ttlMs) =>
      run(async () => {
        await client.sadd(key, handle);
        await client.pexpire(key, ttlMs);
      }),
    wantList: (key, max) => run(() => client.srandmember(key, max)),
    wantRemove: (key, handles) =>
      run(async () => {
        if (handles.length > 0) await client.srem(key, ...handles);
      }),
    probe: () =>
      run(async () => {
        const first = nodes()[0] ?? client;
        await first.ping();
        const info = await first.info("server");
        const version =
          /^valkey_version:(.+)$/m.exec(info)?.[1] ?? /^redis_version:(.+)$/m.exec(info)?.[1] ?? "?";
        return { server: /^valkey_version:/m.test(info) ? "Valkey" : "Redis", version: version.trim() };
      }),
    async close() {
      if (state === "closed") return;
      setState("closed", `team store ${where} closed`);
      for (const wake of waiters) wake();
      waiters.clear();
      // QUIT lets in-flight replies arrive; if the server is away it cannot answer, so cut the link.
      const quit = client.quit().catch(() => undefined);
      const bound = new Promise((resolve) => setTimeout(resolve, 500).unref());
      await Promise.race([quit, bound]);
      client.disconnect();
    },
  };
}

/** `promise`, or a "Command timed out" rejection after `ms` (a cluster node may queue silently). */
function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("Command timed out")), ms + 250);
  });
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.message === "Command timed out";
}

function closedError(): CcrStoreError {
  return new CcrStoreError("store_closed", "the team store connection was closed; open a new one");
}

function unavailable(where: string, why: string, cause?: unknown): CcrStoreError {
  return new CcrStoreError(
    "store_unavailable",
    `the team store ${where} cannot be used (${why}); handles stored only there cannot be read until it is back. Check that it is running and reachable, then retry; \`caveman-mcp doctor\` shows the link`,
    cause === undefined ? undefined : { cause },
  );
}

/** One line saying why a connection attempt or command failed, with advice where it helps. */
function describe(err: unknown, tls: boolean): string {
  const e = err as NodeJS.ErrnoException & { message?: string };
  const text = String(e?.message ?? err).split("\n")[0] ?? "";
  if (/WRONGPASS|NOAUTH|invalid password|AUTH.*failed/i.test(text)) {
    return `authentication failed: ${text}; check the password (CAVEMAN_CCR_PASSWORD or the URL)`;
  }
  if (/NOPERM/.test(text)) return `the user lacks a permission: ${text}`;
  // A plain server never answers a TLS hello (it waits for a newline), which shows as a timeout.
  if (
    tls &&
    (/^ERR_SSL|^ERR_TLS|EPROTO|ETIMEDOUT|CERT|SELF_SIGNED/.test(e?.code ?? "") ||
      /SSL|TLS|handshake|wrong version|certificate|ETIMEDOUT/i.test(text))
  ) {
    return `TLS handshake failed (${text}); if the server does not speak TLS use redis://, if its certificate comes from a private CA give that CA with CAVEMAN_CCR_TLS_CA`;
  }
  return text;
}

function fromRedisError(err: unknown, where: string, tls: boolean): CcrStoreError {
  if (err instanceof CcrStoreError) return err;
  const text = describe(err, tls);
  if (/^OOM /.test(text)) {
    return new CcrStoreError(
      "store_full",
      `the team store ${where} is out of memory (${text}); raise its maxmemory or shorten the lifetimes in the URL (?idle=, ?max_age=)`,
      { cause: err },
    );
  }
  return unavailable(where, text, err);
}
