#!/usr/bin/env bash
# Prepares a fresh machine (Node 20 and git) to build and test Z Engine: the Debian packages
# the tests need (when run as root), pnpm through npm, the install and the build.
# Safe to run again: every step is skipped when already done.
# ZENG_SETUP=demo (scripts/demo.sh) does only what `zeng demo` needs: no Debian packages, no
# Postgres/Redis, and only the CLI's build. Each step prints a line with its time.
set -euo pipefail
cd "$(dirname "$0")/.."
ZENG_SETUP="${ZENG_SETUP:-all}"

# Runs "$@" as one named step: a line when it starts and one with its time when it ends.
setup_step() {
  local name="$1" started="$EPOCHREALTIME"
  shift
  echo "setup: $name ..."
  "$@"
  echo "setup: $name done ($(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s)"
}

PNPM_VERSION=10.34.9
export TURBO_TELEMETRY_DISABLED=1
export CI="${CI:-true}"

if [ "$ZENG_SETUP" != "demo" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  missing=()
  command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
  command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  # The engine's child-process tests plant a Python module (python -m must not find it).
  command -v python3 >/dev/null 2>&1 || missing+=(python3-minimal)
  if [ ${#missing[@]} -gt 0 ]; then
    apt_install() {
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
    }
    setup_step "installing ${missing[*]}" apt_install "${missing[@]}"
  fi
fi
# Postgres and Redis for the platform tests (store-postgres, worker); they start their own
# servers on loopback ports.
[ "$ZENG_SETUP" = "demo" ] || bash scripts/install-services.sh
# Debian's clangd, gopls (with golang-go) and rust-analyzer for the LSP tests.
[ "$ZENG_SETUP" = "demo" ] || setup_step "installing the language servers" \
  bash scripts/install-language-servers.sh
# Debian's fuse3 and libfuse3-dev, and eio-fs, for the full-disk suite's EIO rows.
[ "$ZENG_SETUP" = "demo" ] || [ ! -e /dev/fuse ] || setup_step "building eio-fs" bash -c \
  'bash scripts/install-eio-fs.sh >/dev/null || echo "setup: eio-fs not built: the EIO rows will fail" >&2'

if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  pnpm_install() {
    if ! npm install -g "pnpm@$PNPM_VERSION" >/dev/null 2>&1; then
      npm install -g --prefix "$HOME/.local" "pnpm@$PNPM_VERSION" >/dev/null
      export PATH="$HOME/.local/bin:$PATH"
    fi
  }
  setup_step "installing pnpm $PNPM_VERSION" pnpm_install
fi

deps_install() { pnpm install --frozen-lockfile --reporter=append-only | tail -n 3; }
setup_step "installing the workspace's packages" deps_install
# The MCP protocol's own test clients (the conformance suite on a local Node 22, the
# inspector's CLI) for zeng mcp serve's end-to-end tests, in node_modules/.cache/mcp-clients.
[ "$ZENG_SETUP" = "demo" ] || setup_step "installing the MCP test clients" \
  bash scripts/install-mcp-clients.sh
if [ "$ZENG_SETUP" = "demo" ]; then
  setup_step "building the CLI and the packages it uses" \
    pnpm exec turbo run build --filter=@z-engine/cli... --output-logs=errors-only
else
  setup_step "building every package" pnpm build --output-logs=errors-only
fi
# The MCP conformance suite and the Node 22 it runs on, pinned, outside the workspace.
[ "$ZENG_SETUP" = "demo" ] || setup_step "installing the MCP conformance suite" \
  node packages/engine/bench/conformance/install.mjs
