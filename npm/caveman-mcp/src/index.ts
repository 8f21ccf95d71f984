// Not public API: the launcher is bin-only and exports nothing. These are what the repo's own
// scripts (scripts/build-server.mjs, scripts/sync-targets.mjs, bench/run.mjs) read, from the
// private build that tsup writes to .cache/repo-lib/index.js.
export { gatherHost } from "./host.js";
export { BINDING_ENV, bindingFile, PORTABLE_SERVER_FILE, SERVER_FILE } from "./layout.js";
export { manifestConstraints, packageName, TARGETS, targetsForHost } from "./targets.js";
