#!/usr/bin/env bash
# Installs the servers the platform tests run (Debian's postgresql and redis-server) when
# they are missing and this machine can install them (root with apt-get). Idempotent and
# quick when both are there; prints why not otherwise and exits 0 (the tests then skip,
# saying so). Called by scripts/setup.sh and by the tests' global set-up.
set -euo pipefail

have_postgres() { compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null 2>&1; }
have_redis() { command -v redis-server >/dev/null 2>&1; }

missing=()
have_postgres || missing+=(postgresql)
have_redis || missing+=(redis-server)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-services: ${missing[*]} missing, and this is not root with apt-get: the Postgres and Redis tests will be skipped" >&2
  exit 0
fi
echo "install-services: installing ${missing[*]}"
apt-get update -qq
# A policy that forbids starting services: the package's own cluster is not needed (tests
# start their own on loopback ports).
policy=/usr/sbin/policy-rc.d
made_policy=""
if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && made_policy=1; fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
[ -n "$made_policy" ] && rm -f "$policy"
exit 0
