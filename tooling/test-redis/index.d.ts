/** A throwaway redis-server on 127.0.0.1 with its own data directory and no persistence. */
export interface TestRedis {
  readonly port: number;
  /** redis://127.0.0.1:<port>, or rediss:// with `tls` */
  readonly url: string;
  /** With `tls`: the PEM file of the private CA that signed the server's certificate. */
  readonly caFile: string | undefined;
  readonly dir: string;
  /** The server's pid, or undefined while it is down. */
  readonly pid: number | undefined;
  /** Run redis-cli against it; `input` goes to stdin (for `-x`). Resolves with stdout, trimmed. */
  cli(args: string[], input?: Uint8Array | string): Promise<string>;
  /** Send a signal (default SIGKILL) and wait for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Start it again on the same port and directory (after kill), empty. */
  restart(): Promise<void>;
  /** Kill it and remove its directory. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartRedisOptions {
  /** A fixed port (default: a free one, chosen again if it is taken before the server binds). */
  port?: number;
  /** Extra redis-server arguments, e.g. ["--requirepass", "secret"]. */
  args?: string[];
  /** Serve TLS only, with a certificate for 127.0.0.1 from a private CA made with the openssl CLI. */
  tls?: boolean;
}

/**
 * "redis-server, ... not on PATH: run `bash tooling/scripts/setup.sh` ..." when a program these
 * helpers run is missing (redis-server, redis-cli, openssl), else undefined.
 */
export function missingToolsLine(): string | undefined;

/**
 * Start redis-server on a free loopback port. Without the programs it throws one line (code
 * `test_tools_missing`, no stack) naming the setup command.
 */
export function startRedis(options?: StartRedisOptions): Promise<TestRedis>;

/** A throwaway Redis Cluster of real redis-server primaries on 127.0.0.1. */
export interface TestRedisCluster {
  readonly nodes: TestRedis[];
  readonly ports: number[];
  /** redis://127.0.0.1:<first>?cluster=yes&seeds=<the others> */
  readonly url: string;
  /** Resolves once every running node reports cluster_state:ok and knows every peer. */
  settled(timeoutMs?: number): Promise<void>;
  /** Index in `nodes` of the primary that serves `key`'s hash slot. */
  nodeOf(key: string): Promise<number>;
  /** Kill every node and remove its directory. */
  stop(): Promise<void>;
}

export interface StartRedisClusterOptions {
  /** Number of primaries (no replicas). Default 3. */
  primaries?: number;
  /** Extra redis-server arguments for every node. */
  args?: string[];
}

/** Start a Redis Cluster (`--cluster-enabled yes`, joined with `redis-cli --cluster create`). */
export function startRedisCluster(options?: StartRedisClusterOptions): Promise<TestRedisCluster>;
