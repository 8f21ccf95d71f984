// The version stamped in at build time from package.json (tsup `define`); "dev" when run unbundled.
declare const __CAVEMAN_VERSION__: string | undefined;

export const VERSION: string = typeof __CAVEMAN_VERSION__ === "string" ? __CAVEMAN_VERSION__ : "0.0.0-dev";
