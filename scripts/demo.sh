#!/usr/bin/env bash
# The main job on a fresh machine: set-up (pnpm, install, build), then `zeng demo`: the
# "fix the failing test" walkthrough with a scripted model, no key and no network.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

exec node apps/cli/dist/main.js demo "$@"
