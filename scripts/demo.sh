#!/usr/bin/env bash
# The main job on a fresh machine: the set-up `zeng demo` needs (pnpm, the install, the CLI's
# build: no Debian packages, no Postgres/Redis, no web build), a line per step with its time,
# then `zeng demo`: the "fix the failing test" walkthrough with a scripted model, no key and
# no network.
set -euo pipefail
cd "$(dirname "$0")/.."
ZENG_SETUP=demo source scripts/setup.sh

exec node apps/cli/dist/main.js demo "$@"
