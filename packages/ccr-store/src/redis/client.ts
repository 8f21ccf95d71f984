// The ioredis client for a team-store URL: one connection to a standalone server, or a Redis
// Cluster client (`?cluster=yes`) that learns the slot map from its seeds and follows MOVED/ASK.
// Either way every socket it opens is guarded (connector.ts), the link never queues commands
// while it is down (no offline queue at the top), reconnects back off with jitter up to
// `maxBackoffMs`, and the four scripts are defined on it. `nodes()` lists the clients that hold
// data (the server itself, or each cluster primary) for the commands that walk every key.
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from "ioredis";
import type { TeamUrl } from "../teamUrl.js";
import { guardedConnector } from "./connector.js";
import type { ReplyLimits } from "./replyGuard.js";
import { GET_LUA, HAS_LUA, PUT_LUA, QUARANTINE_LUA } from "./scripts.js";

export interface ClientOptions {
  url: TeamUrl;
  commandTimeoutMs: number;
  connectTimeoutMs: number;
  maxBackoffMs: number;
  tlsCaFile: string | undefined;
  limits: ReplyLimits;
}

/** The scripted commands defineCommand adds (their Buffer-returning forms). */
interface ScriptedRedis {
  ccrPutBuffer(...args: Array<string | Buffer | Uint8Array>): Promise<number>;
  ccrGetBuffer(...args: Array<string | Buffer>): Promise<Buffer[]>;
  ccrHasBuffer(...args: Array<string | Buffer>): Promise<number>;
  ccrQuarantineBuffer(...args: string[]): Promise<number>;
}

export interface TeamClient {
  client: Redis | Cluster;
  scripted: ScriptedRedis;
  /** The clients that hold keys: the server, or every cluster primary. */
  nodes(): Redis[];
  cluster: boolean;
}

const backoff = (max: number) => (times: number) =>
  Math.min(100 * 2 ** Math.min(times - 1, 10), max) + Math.floor(Math.random() * 100);

export function openClient(opts: ClientOptions): TeamClient {
  const { url } = opts;
  const node: RedisOptions = {
    ...(url.username !== undefined ? { username: url.username } : {}),
    ...(url.password !== undefined ? { password: url.password } : {}),
    ...(url.tls
      ? {
          tls: {
            // SNI takes host names only (RFC 6066); an IP address is checked against the certificate as is.
            ...(isIP(url.host) === 0 ? { servername: url.host } : {}),
            ...(opts.tlsCaFile ? { ca: readFileSync(opts.tlsCaFile) } : {}),
          },
        }
      : {}),
    connectionName: `caveman-mcp:${url.namespace}`,
    connectTimeout: opts.connectTimeoutMs,
    commandTimeout: opts.commandTimeoutMs,
    // RESP2 keeps script replies plain arrays of bulk strings, the same on Redis and Valkey.
    protocol: 2,
    maxRetriesPerRequest: 1,
    // A command in flight when the link drops fails (connection.ts rejects it at once) rather
    // than being sent again: a reply that broke the guard would break it again, forever.
    autoResendUnfulfilledCommands: false,
    Connector: guardedConnector(opts.limits),
  };
  let client: Redis | Cluster;
  if (url.cluster) {
    const options: ClusterOptions = {
      redisOptions: node,
      enableOfflineQueue: false,
      lazyConnect: true,
      clusterRetryStrategy: backoff(opts.maxBackoffMs),
      slotsRefreshTimeout: opts.connectTimeoutMs,
      // A primary that is down answers nothing: give up on it within the command bound.
      retryDelayOnClusterDown: 200,
      retryDelayOnFailover: 200,
      maxRedirections: 8,
    };
    client = new Cluster(
      url.seeds.map((s) => ({ host: s.host, port: s.port })),
      options,
    );
  } else {
    client = new Redis({
      ...node,
      host: url.host,
      port: url.port,
      db: url.db,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: backoff(opts.maxBackoffMs),
    });
  }
  // Each script reads and writes the two keys of one handle, which share a hash slot ({handle}).
  client.defineCommand("ccrPut", { numberOfKeys: 2, lua: PUT_LUA });
  client.defineCommand("ccrGet", { numberOfKeys: 2, lua: GET_LUA });
  client.defineCommand("ccrHas", { numberOfKeys: 2, lua: HAS_LUA, readOnly: true });
  client.defineCommand("ccrQuarantine", { numberOfKeys: 2, lua: QUARANTINE_LUA });
  const standalone = client instanceof Redis ? client : undefined;
  return {
    client,
    scripted: client as unknown as ScriptedRedis,
    nodes: () => (standalone ? [standalone] : (client as Cluster).nodes("master")),
    cluster: standalone === undefined,
  };
}
