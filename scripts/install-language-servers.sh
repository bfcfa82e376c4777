#!/usr/bin/env bash
# Installs the language servers the LSP tests run beside the npm ones (Debian's clangd;
# gopls with golang-go, which it needs; rust-web-analyzer, Debian's rust-analyzer from the
# rustc-web source) when they are missing and this machine can install them (root with
# apt-get). Idempotent and quick when all are there; prints why not otherwise and exits 0
# (the tests then skip, saying so). Called by scripts/setup.sh (not for ZENG_SETUP=demo).
set -euo pipefail

have_clangd() { command -v clangd >/dev/null 2>&1; }
have_gopls() { command -v gopls >/dev/null 2>&1; }
have_go() { command -v go >/dev/null 2>&1; }
# rustup's proxy answers to `rust-analyzer` without the component (it then falls back to
# one on PATH, else fails): only a program that runs counts (Debian's is /usr/bin's).
have_rust_analyzer() { [ -x /usr/bin/rust-analyzer ] || rust-analyzer --version >/dev/null 2>&1; }

missing=()
have_clangd || missing+=(clangd)
have_gopls || missing+=(gopls)
have_go || missing+=(golang-go)
have_rust_analyzer || missing+=(rust-web-analyzer)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-language-servers: ${missing[*]} missing, and this is not root with apt-get: the clangd, gopls and rust-analyzer tests will skip" >&2
  exit 0
fi
# Only what this Debian offers (rust-web-analyzer is in bookworm's security updates).
offered() { [[ "$(apt-cache policy "$1" 2>/dev/null)" =~ Candidate:\ [^\(] ]]; }
offered "${missing[0]}" || apt-get update -qq
available=()
for pkg in "${missing[@]}"; do
  if offered "$pkg"; then
    available+=("$pkg")
  else
    echo "install-language-servers: $pkg is not offered by this machine's Debian sources: its test will skip" >&2
  fi
done
[ ${#available[@]} -eq 0 ] && exit 0
echo "install-language-servers: installing ${available[*]}"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${available[@]}" >/dev/null ||
  echo "install-language-servers: apt-get install ${available[*]} failed: those tests will skip" >&2
exit 0
