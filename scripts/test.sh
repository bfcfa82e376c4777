#!/usr/bin/env bash
# Runs every check of the repository on a fresh machine: set-up, lint, typecheck, all tests
# of every package in one vitest run, then the packed-install check (scripts/examples.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

pnpm lint
pnpm typecheck

report="$(mktemp)"
status=0
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$report" || status=$?
summary="$(node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report" || true)"
rm -f "$report"

# The packages as someone else gets them: packed, installed with npm outside the workspace,
# and the examples type-checked and run there.
if [ "$status" -eq 0 ]; then ./scripts/examples.sh || status=$?; fi

# The test count closes the output.
echo "$summary"
exit "$status"
