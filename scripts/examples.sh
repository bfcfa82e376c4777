#!/usr/bin/env bash
# The packed-install check: packs every published package, installs the tarballs with npm
# into a temporary project outside the workspace, type-checks examples/ there against them,
# runs each example and the testing example's vitest test. Needs the npm registry (or its
# cache) for the third-party dependencies. Run it after a build; it prints its duration.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
started=$(date +%s)
work="$(mktemp -d "${TMPDIR:-/tmp}/zeng-examples-XXXXXX")"
[ -n "${ZENG_EXAMPLES_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

# 1. Pack every package that is not private (prepack builds what is stale).
published=$(node -e '
  const fs = require("fs");
  for (const d of fs.readdirSync("packages")) {
    const p = JSON.parse(fs.readFileSync(`packages/${d}/package.json`, "utf8"));
    if (!p.private) console.log(p.name);
  }')
filters=()
for name in $published; do filters+=(--filter "$name"); done
pnpm -r "${filters[@]}" pack --pack-destination "$work/packs" >/dev/null
echo "examples: packed in $(( $(date +%s) - started )) s"

# 2. No test helpers and no tests in any tarball; every one ships its licence.
for tgz in "$work"/packs/*.tgz; do
  listing="$(tar tzf "$tgz")"
  if grep -E 'test-support|test-helper|\.test\.' <<<"$listing"; then
    echo "examples: $(basename "$tgz") ships test files" >&2
    exit 1
  fi
  grep -qx 'package/LICENSE' <<<"$listing" || { echo "examples: $(basename "$tgz") has no LICENSE" >&2; exit 1; }
done

# 3. A project outside the workspace that depends on the tarballs only.
project="$work/project"
mkdir -p "$project"
cp -r examples/. "$project/"
node -e '
  const fs = require("fs");
  const [packs, project] = process.argv.slice(1);
  const deps = {};
  for (const f of fs.readdirSync(packs)) {
    const name = "@z-engine/" + f.replace(/^z-engine-/, "").replace(/-\d+\.\d+\.\d+.*\.tgz$/, "");
    deps[name] = `file:${packs}/${f}`;
  }
  Object.assign(deps, { zod: "4.6.7", typescript: "5.9.3", vitest: "4.1.12", "@types/node": "^20.19.0" });
  fs.writeFileSync(`${project}/package.json`, JSON.stringify({ name: "zeng-examples", private: true, type: "module", dependencies: deps }, null, 2));
  fs.writeFileSync(`${project}/tsconfig.json`, JSON.stringify({
    compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, outDir: "build", skipLibCheck: true, types: ["node"] },
    include: ["*/*.ts"],
  }, null, 2));
' "$work/packs" "$project"
cd "$project"
npm install --no-audit --no-fund --prefer-offline --loglevel=error >/dev/null
echo "examples: installed at $(( $(date +%s) - started )) s"

# 4. Type-check the examples against the shipped .d.ts files (skipLibCheck: the packages'
#    own declarations were checked by their strict build), then run each.
npx tsc -p .
echo "examples: type-checked at $(( $(date +%s) - started )) s"
for example in basic own-model-client own-store own-tool postgres-store; do
  [ -f "build/$example/main.js" ] || continue
  run=(node "build/$example/main.js")
  # The Postgres example gets a server on loopback where Postgres is installed (CI installs it).
  [ "$example" = postgres-store ] && run=(node "$root/scripts/with-postgres.mjs" "${run[@]}")
  out="$("${run[@]}")" || { echo "$out"; echo "examples: $example failed" >&2; exit 1; }
  last="$(tail -n 1 <<<"$out")"
  echo "examples: $example: $last"
  if [ "$example" = basic ] && [ "$last" != "completed: verified" ]; then
    echo "$out"; echo "examples: basic did not end Verified" >&2; exit 1
  fi
  if [ "$example" = postgres-store ] && [ "$last" != "1 session, completed" ] && [[ "$last" != skipped:* ]]; then
    echo "$out"; echo "examples: postgres-store did not resume its session" >&2; exit 1
  fi
done
npx vitest run --dir testing-with-testkit --reporter=dot >/dev/null
echo "examples: testing-with-testkit passed"
echo "examples: packed, installed and ran in $(( $(date +%s) - started )) s (from $root)"
