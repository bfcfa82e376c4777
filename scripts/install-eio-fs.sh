#!/usr/bin/env bash
# Builds eio-fs (bench/reliability/native/eio-fs.c), the FUSE file system whose writes fail
# with a real EIO on a switch, for the EIO rows of the full-disk suite (issue 47). Installs
# Debian's fuse3 and libfuse3-dev first when they are missing and this is root with apt-get.
# Idempotent and quick when the binary is newer than its source. Prints the binary's path on
# success; exits 1 saying why when it cannot be built (the suite then fails, never skips,
# unless /dev/fuse is absent). Called by the disk suite's test and by scripts/setup.sh.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$here/bench/reliability/native/eio-fs.c"
out="$here/bench/reliability/dist/native/eio-fs"

[ -x "$out" ] && [ "$out" -nt "$src" ] && { echo "$out"; exit 0; }
have_fuse() { pkg-config --exists fuse3 2>/dev/null && command -v fusermount3 >/dev/null 2>&1; }
if ! have_fuse; then
  if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "install-eio-fs: libfuse3-dev or fuse3 is missing, and this is not root with apt-get" >&2
    exit 1
  fi
  [[ "$(apt-cache policy libfuse3-dev 2>/dev/null)" =~ Candidate:\ [^\(] ]] || apt-get update -qq
  echo "install-eio-fs: installing fuse3 libfuse3-dev" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    fuse3 libfuse3-dev pkg-config gcc >/dev/null
fi
mkdir -p "$(dirname "$out")"
# shellcheck disable=SC2046 # pkg-config's flags are words
gcc -O2 -Wall -Wextra -Werror -o "$out.tmp" "$src" $(pkg-config --cflags --libs fuse3)
mv "$out.tmp" "$out"
echo "$out"
