// Where things live inside a platform package and the launcher, and the environment
// variables the launcher and the server agree on. The build script imports these from
// dist/ so that what it lays out is exactly what the resolver looks for.

/** Override: an absolute path to a server to run instead of any resolved build. */
export const OVERRIDE_ENV = "CAVEMAN_MCP_BINARY";
/** Tells the server which prebuilt `better_sqlite3.node` to load (better-sqlite3's nativeBinding). */
export const BINDING_ENV = "CAVEMAN_SQLITE_BINDING";

/** The bundled server, relative to a platform package or to the launcher's portable dir. */
export const SERVER_FILE = "dist/cli.mjs";
/** The launcher's own copy of the bundled server, used when no platform package fits. */
export const PORTABLE_SERVER_FILE = "dist/portable/cli.mjs";

/**
 * The prebuilt binding for one Node ABI, relative to a platform package. better-sqlite3 is
 * not a Node-API addon, so a binding built for Node 20 (ABI 115) does not load in Node 22
 * (ABI 127): a package may carry one directory per ABI and the launcher picks its own.
 */
export function bindingFile(abi: string): string {
  return `dist/node-v${abi}/better_sqlite3.node`;
}

/** The ABI directories (`node-v115` -> `115`) present in a package's dist listing. */
export function abisIn(distEntries: readonly string[]): string[] {
  return distEntries
    .map((name) => /^node-v(\d+)$/.exec(name)?.[1])
    .filter((abi): abi is string => abi !== undefined)
    .sort();
}
