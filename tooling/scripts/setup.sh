#!/usr/bin/env bash
# Sets up a fresh clone: the pinned pnpm, dependencies from the lockfile, and a build of every
# package. Safe to run again. Used by the README and by .ci/run.
#   bash tooling/scripts/setup.sh           set up only (what CI runs)
#   bash tooling/scripts/setup.sh --start   set up, then serve MCP on stdio with the embedded defaults
# Everything this script prints goes to stderr: with --start, stdout belongs to the MCP protocol.
set -euo pipefail
cd "$(dirname "$0")/../.."

PNPM_VERSION=12.4.2
export TURBO_TELEMETRY_DISABLED=1

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm@$PNPM_VERSION" >&2
  npm install -g "pnpm@$PNPM_VERSION" >&2
fi

# better-sqlite3 compiles from source where its prebuilt binary cannot be downloaded; node-gyp
# then needs Node's headers, which machines like this one ship in /usr/include/node. A laptop
# without them downloads the prebuilt binary as usual.
if [ -f /usr/include/node/node.h ] && [ -z "${npm_config_nodedir:-}" ]; then
  export npm_config_nodedir=/usr
fi

if [ -n "${CI:-}" ]; then
  pnpm install --frozen-lockfile >&2
else
  pnpm install --frozen-lockfile >&2 || pnpm install >&2
fi
pnpm build >&2
echo "setup: done" >&2

if [ "${1:-}" = "--start" ]; then
  shift
  exec node apps/caveman-mcp/dist/cli.js "$@"
fi
