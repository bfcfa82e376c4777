#!/usr/bin/env bash
# Prepares a fresh machine (Node 20 and git) to build and test Z Engine: the Debian packages
# the tests need (when run as root), pnpm through npm, the install and the build.
# Safe to run again: every step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.9
export TURBO_TELEMETRY_DISABLED=1
export CI="${CI:-true}"

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  missing=()
  command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
  command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  # The engine's child-process tests plant a Python module (python -m must not find it).
  command -v python3 >/dev/null 2>&1 || missing+=(python3-minimal)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi
# Postgres and Redis for the platform tests (store-postgres, worker); they start their own
# servers on loopback ports.
bash scripts/install-services.sh

if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm $PNPM_VERSION"
  if ! npm install -g "pnpm@$PNPM_VERSION" >/dev/null 2>&1; then
    npm install -g --prefix "$HOME/.local" "pnpm@$PNPM_VERSION" >/dev/null
    export PATH="$HOME/.local/bin:$PATH"
  fi
fi

pnpm install --frozen-lockfile --reporter=append-only | tail -n 3
pnpm build --output-logs=errors-only

# The MCP conformance suite and the Node 22 it runs on, pinned, outside the workspace.
node packages/engine/bench/conformance/install.mjs >/dev/null
