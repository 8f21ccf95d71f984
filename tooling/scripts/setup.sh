#!/usr/bin/env bash
# Sets up a fresh clone: redis-server, redis-cli and openssl for the tests (system package
# manager), the pinned pnpm, dependencies from the lockfile, and a build of every package. Safe to
# run again. Used by the README and by .ci/run.
#   bash tooling/scripts/setup.sh           set up only (what CI runs)
#   bash tooling/scripts/setup.sh --start   set up, then serve MCP on stdio with the embedded defaults
# Everything this script prints goes to stderr: with --start, stdout belongs to the MCP protocol.
set -euo pipefail
cd "$(dirname "$0")/../.."

PNPM_VERSION=12.4.2
export TURBO_TELEMETRY_DISABLED=1

# The tests start their own redis-server (and use redis-cli) and make TLS certificates with the
# openssl CLI. Provide them through the system package manager; where that is not possible
# (no manager known, not root and no sudo, install failed), stop with the one command to run.
need_system_tools() {
  local missing=() t
  for t in redis-server redis-cli openssl; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo="" cmd=""
  [ "$(id -u)" = 0 ] || sudo="sudo "
  if command -v apt-get >/dev/null 2>&1; then
    cmd="${sudo}apt-get update && ${sudo}apt-get install -y redis-server openssl"
  elif command -v dnf >/dev/null 2>&1; then
    cmd="${sudo}dnf install -y redis openssl"
  elif command -v apk >/dev/null 2>&1; then
    cmd="${sudo}apk add redis openssl"
  elif command -v brew >/dev/null 2>&1; then
    cmd="brew install redis openssl"; sudo=""
  fi
  if [ -z "$cmd" ]; then
    echo "setup: FAILED: the tests need ${missing[*]}; install Redis 7+ (redis-server, redis-cli) and openssl, then run setup again" >&2
    exit 1
  fi
  # sudo may ask for a password on a terminal; without one (CI, a pipe) it must not need to.
  if [ -n "$sudo" ] && ! { command -v sudo >/dev/null 2>&1 && { [ -t 0 ] || sudo -n true 2>/dev/null; }; }; then
    echo "setup: FAILED: the tests need ${missing[*]}; run: $cmd" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}: $cmd" >&2
  # Debian's package tries to start a system service; where there is no init (a container) that
  # fails harmlessly and the tests start their own server anyway.
  if ! DEBIAN_FRONTEND=noninteractive bash -c "$cmd" >&2; then
    echo "setup: FAILED: could not install ${missing[*]}; run: $cmd" >&2
    exit 1
  fi
  for t in "${missing[@]}"; do
    command -v "$t" >/dev/null 2>&1 || { echo "setup: FAILED: $t is still not on PATH after: $cmd" >&2; exit 1; }
  done
}
need_system_tools

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm@$PNPM_VERSION" >&2
  npm install -g "pnpm@$PNPM_VERSION" >&2
fi

# better-sqlite3 compiles from source where its prebuilt binary cannot be downloaded; node-gyp
# then needs the headers of exactly the running Node. Headers of another version compile an addon
# that fails at load (NODE_MODULE_VERSION 115 ... requires 127), so node-headers.sh names only
# headers whose version is this Node's own; with none, node-gyp fetches them (a laptop online).
nodedir="$(bash tooling/scripts/node-headers.sh node || true)"
if [ -n "$nodedir" ]; then
  export npm_config_nodedir="$nodedir"
elif [ -n "${npm_config_nodedir:-}" ]; then
  echo "setup: ignoring npm_config_nodedir=$npm_config_nodedir: not the headers of Node $(node -v)" >&2
  unset npm_config_nodedir
fi

if [ -n "${CI:-}" ]; then
  pnpm install --frozen-lockfile >&2
else
  pnpm install --frozen-lockfile >&2 || pnpm install >&2
fi

# The binding must load under this Node before setup says done. pnpm's side-effects cache is
# keyed by Node major only, so a binding once built against the wrong headers can come back from
# it: rebuild in place against this Node's headers, and check again.
sqlite_loads() {
  node -e 'try { const D = require(require.resolve("better-sqlite3", { paths: ["packages/ccr-store"] }));
    new D(":memory:").prepare("select 1").get(); } catch (e) { console.error(String(e.message).replace(/\s+/g, " ").slice(0, 300)); process.exit(1); }'
}
if ! sqlite_loads 2>/tmp/caveman-setup-sqlite.$$; then
  echo "setup: better-sqlite3 does not load under Node $(node -v) ($(cat /tmp/caveman-setup-sqlite.$$)); rebuilding it for this Node" >&2
  pnpm -r rebuild better-sqlite3 >&2
  if ! sqlite_loads 2>/tmp/caveman-setup-sqlite.$$; then
    why="$(cat /tmp/caveman-setup-sqlite.$$)"
    rm -f /tmp/caveman-setup-sqlite.$$
    if node -e 'process.exit(process.getBuiltinModule?.("node:sqlite") ? 0 : 1)' 2>/dev/null; then
      echo "setup: warning: better-sqlite3 still does not load ($why); the store uses node:sqlite on Node $(node -v)" >&2
    else
      echo "setup: FAILED: better-sqlite3 does not load under Node $(node -v) ($why), and this Node has no node:sqlite. Install this Node's headers (or use Node 22.13+) and run setup again." >&2
      exit 1
    fi
  fi
fi
rm -f /tmp/caveman-setup-sqlite.$$
pnpm build >&2
echo "setup: done" >&2

if [ "${1:-}" = "--start" ]; then
  shift
  exec node apps/caveman-mcp/dist/cli.js "$@"
fi
