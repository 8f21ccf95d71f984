// The team store's address: `redis://[user[:password]@]host[:port][/db][?settings]`, or
// `rediss://…` for TLS. Pure parsing (no network), so the binary can validate its configuration
// before it starts anything. Settings ride in the query — namespace, idle, max_age, max_bytes,
// cluster (a Redis Cluster: the host is a seed node) and seeds (more seeds, `h:p,h:p`) —
// and an unknown one is an error naming the accepted ones. Contract: the password never appears
// in anything this module returns except `password` itself; `masked` is the only form for logs.
import { CcrStoreError } from "./errors.js";

/** A parsed team-store URL. */
export interface TeamUrl {
  /** True for rediss:// (TLS). */
  tls: boolean;
  host: string;
  port: number;
  /** Database index from the path (`/2`), default 0. */
  db: number;
  username: string | undefined;
  password: string | undefined;
  /** Key namespace, `?namespace=` (letters, digits, `.`, `_`, `-`; at most 64), default "default". */
  namespace: string;
  /** `?idle=` (e.g. 3600, 90m, 12h, 7d): a handle unread this long expires. */
  idleMs: number | undefined;
  /** `?max_age=`: a handle expires this long after it was first stored, read or not. */
  maxAgeMs: number | undefined;
  /** `?max_bytes=` (e.g. 16MiB): the largest original the team store takes. */
  maxOriginalBytes: number | undefined;
  /** `?cluster=yes`: a Redis Cluster, reached through the seed nodes (database 0 only). */
  cluster: boolean;
  /** The host itself, then `?seeds=` (cluster only). */
  seeds: Array<{ host: string; port: number }>;
  /** The URL with the password shown as `***`: the only spelling fit for logs and `doctor`. */
  masked: string;
}

const DEFAULT_NAMESPACE = "default";
const NAMESPACE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SETTINGS = ["namespace", "idle", "max_age", "max_bytes", "cluster", "seeds"] as const;
const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SIZE_UNITS: Record<string, number> = {
  "": 1,
  k: 1024,
  kib: 1024,
  m: 1 << 20,
  mib: 1 << 20,
  g: 1 << 30,
  gib: 1 << 30,
};

function bad(message: string): CcrStoreError {
  return new CcrStoreError("invalid_config", message);
}

/** Check a namespace name (also used for the `--ccr-namespace` flag). */
export function checkNamespace(name: string): string {
  if (!NAMESPACE.test(name)) {
    throw bad(
      `team namespace "${name.slice(0, 80)}" is not valid; use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  }
  return name;
}

/**
 * Parse a team-store URL. `namespace` and `password`, when given, replace the URL's own (a flag
 * naming the namespace, a password kept out of the URL in an environment variable).
 */
export function parseTeamUrl(
  text: string,
  overrides: { namespace?: string; password?: string } = {},
): TeamUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The text may hold a password: never echo it.
    throw bad(
      "the team store URL is not a valid URL; expected redis://[user:password@]host[:port][/db][?namespace=NAME]",
    );
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw bad(`the team store URL must start with redis:// or rediss:// (TLS), not ${url.protocol}//`);
  }
  if (url.hostname === "") throw bad("the team store URL names no host");
  // An "@" after the host means a password with an unescaped "/", "?" or "#" cut the URL short:
  // what follows is part of the secret, so it is named, never echoed.
  if (/@/.test(url.pathname + url.search + url.hash)) {
    throw bad(
      'the team store URL has an "@" after its host: percent-encode "/", "?", "#" and "@" in the user name and password (e.g. %2F), or give the password in CAVEMAN_CCR_PASSWORD',
    );
  }
  if (url.hash !== "") throw bad("the team store URL must not have a #fragment");
  const path = url.pathname.replace(/^\//, "");
  if (path !== "" && !/^\d{1,5}$/.test(path)) {
    throw bad(`the team store URL path must be a database number (e.g. /0), not /${path.slice(0, 40)}`);
  }
  const settings = new Map<string, string>();
  for (const [key, value] of url.searchParams) {
    if (!(SETTINGS as readonly string[]).includes(key)) {
      throw bad(
        `unknown team store setting "${key.slice(0, 40)}" in the URL; accepted: ${SETTINGS.join(", ")}`,
      );
    }
    if (settings.has(key)) throw bad(`team store setting "${key}" is given twice in the URL`);
    settings.set(key, value);
  }
  const namespace = checkNamespace(overrides.namespace ?? settings.get("namespace") ?? DEFAULT_NAMESPACE);
  const username = url.username === "" ? undefined : decode(url.username, "user name");
  const urlPassword = url.password === "" ? undefined : decode(url.password, "password");
  const masked = new URL(url.href);
  if (masked.password !== "") masked.password = "***";
  // A user name with no password cannot log in, and is most often a password written without
  // its leading ":" (redis://SECRET@host): shown masked like one, unless a password comes apart.
  else if (masked.username !== "" && overrides.password === undefined) masked.username = "***";
  if (overrides.namespace !== undefined) masked.searchParams.set("namespace", namespace);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = url.port === "" ? 6379 : Number(url.port);
  const db = path === "" ? 0 : Number(path);
  const cluster = optional(settings.get("cluster"), flag) ?? false;
  if (cluster && db !== 0) throw bad("a Redis Cluster has database 0 only; drop the /db from the URL");
  if (!cluster && settings.has("seeds")) throw bad("seeds= names more nodes of a cluster; add cluster=yes");
  return {
    tls: url.protocol === "rediss:",
    host,
    port,
    db,
    cluster,
    seeds: [{ host, port }, ...(settings.has("seeds") ? seedList(settings.get("seeds")!) : [])],
    username,
    password: overrides.password ?? urlPassword,
    namespace,
    idleMs: optional(settings.get("idle"), (v) => duration("idle", v)),
    maxAgeMs: optional(settings.get("max_age"), (v) => duration("max_age", v)),
    maxOriginalBytes: optional(settings.get("max_bytes"), size),
    masked: masked.href,
  };
}

function flag(value: string): boolean {
  if (/^(yes|true|1|on)$/i.test(value)) return true;
  if (/^(no|false|0|off)$/i.test(value)) return false;
  throw bad(`team store setting cluster="${value.slice(0, 40)}" is not yes or no`);
}

function seedList(value: string): Array<{ host: string; port: number }> {
  return value.split(",").map((seed) => {
    const m = /^(\[[0-9a-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/i.exec(seed.trim());
    const port = m ? Number(m[2]) : 0;
    if (!m || port < 1 || port > 65535)
      throw bad(
        `team store setting seeds: "${seed.slice(0, 60)}" is not host:port (e.g. seeds=10.0.0.2:6379,10.0.0.3:6379)`,
      );
    return { host: m[1]!.replace(/^\[(.*)\]$/, "$1"), port };
  });
}

/**
 * Which team store and namespace a URL names, password and user left out: the same for every
 * process that shares the data (seeds in any order), so an outbox row queued by one is sent by
 * another only to that same place.
 */
export function teamTarget(url: TeamUrl): string {
  const seeds = url.cluster
    ? url.seeds
        .map((s) => `${s.host}:${s.port}`)
        .sort()
        .join(",")
    : `${url.host}:${url.port}/${url.db}`;
  return `${url.tls ? "rediss" : "redis"}://${seeds}${url.cluster ? "?cluster" : ""}#${url.namespace}`;
}

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw bad(`the team store URL's ${what} has a malformed %-escape`);
  }
}

function optional<T>(value: string | undefined, parse: (v: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}

function duration(name: string, value: string): number {
  const m = /^(\d{1,12})(ms|s|m|h|d)?$/.exec(value.trim());
  const ms = m ? Number(m[1]) * DURATION_UNITS[m[2] ?? "s"]! : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms <= 0) {
    throw bad(
      `team store setting ${name}="${value.slice(0, 40)}" is not a duration (e.g. 3600, 90m, 12h, 7d)`,
    );
  }
  return ms;
}

function size(value: string): number {
  const m = /^(\d{1,12})\s*(k|kib|m|mib|g|gib)?$/i.exec(value.trim());
  const n = m ? Number(m[1]) * SIZE_UNITS[(m[2] ?? "").toLowerCase()]! : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw bad(
      `team store setting max_bytes="${value.slice(0, 40)}" is not a byte size (e.g. 16777216 or 16MiB)`,
    );
  }
  return n;
}
