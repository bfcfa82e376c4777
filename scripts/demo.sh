#!/usr/bin/env bash
# The main job on a fresh machine: set-up, then the demo. Until the CLI lands (issue 12),
# this builds every package and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

if [ -f apps/cli/dist/main.js ]; then
  exec node apps/cli/dist/main.js demo "$@"
fi
echo "Z Engine is built (every package under packages/ and apps/)."
echo "The zeng CLI and its demo come with issue 12; until then this command only builds."
