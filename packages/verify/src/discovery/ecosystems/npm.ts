import type { DiscoveryContext, Ecosystem, FoundCheck } from "../ecosystem.js";
import {
  byKind,
  kindOfName,
  nearestAncestor,
  preferCheckingFormatters,
  SAFE_NAME,
} from "../ecosystem.js";
import type { Folder } from "../walk.js";

type Manager = "npm" | "pnpm" | "yarn" | "bun";

const LOCK_FILES: ReadonlyArray<readonly [string, Manager]> = [
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["package-lock.json", "npm"],
  ["npm-shrinkwrap.json", "npm"],
];

const NPM_PLACEHOLDER = /no test specified/;

function lockManager(folder: Folder): Manager | undefined {
  for (const [file, manager] of LOCK_FILES) if (folder.files.has(file)) return manager;
  return undefined;
}

/** The lock file in this folder or the nearest one above it, else `packageManager`, else npm. */
function managerFor(ctx: DiscoveryContext, declared: unknown): Manager {
  const here = lockManager(ctx.folder);
  if (here !== undefined) return here;
  const above = nearestAncestor(ctx, (f) => lockManager(f) !== undefined);
  if (above !== undefined) return lockManager(above) ?? "npm";
  if (typeof declared === "string") {
    const name = declared.split("@")[0];
    if (name === "pnpm" || name === "yarn" || name === "bun" || name === "npm") return name;
  }
  return "npm";
}

/**
 * The command of a script. `<pm> test` for the test script (a rule such as
 * `Bash(npm test:*)` covers it) and `<pm> run NAME` for the others; bun's `bun test` is its
 * own runner, not the script, so bun always uses `bun run`.
 */
export function scriptCommand(manager: Manager, name: string): string {
  if (name === "test" && manager !== "bun") return `${manager} test`;
  return `${manager} run ${name}`;
}

function readScripts(
  ctx: DiscoveryContext,
  text: string,
): { scripts: Record<string, unknown>; pm: unknown } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    ctx.problem("package.json", `not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    ctx.problem("package.json", "not a JSON object");
    return undefined;
  }
  const record = json as Record<string, unknown>;
  const scripts = record.scripts ?? {};
  if (typeof scripts !== "object" || scripts === null || Array.isArray(scripts)) {
    ctx.problem("package.json", '"scripts" is not an object');
    return undefined;
  }
  return { scripts: scripts as Record<string, unknown>, pm: record.packageManager };
}

/** npm, pnpm, yarn and bun: the scripts of every package.json, run with the lock file's manager. */
export const npmEcosystem: Ecosystem = {
  name: "npm",
  applies: (folder) => folder.files.has("package.json"),
  async discover(ctx) {
    const text = await ctx.read("package.json");
    if (text === undefined) return [];
    const parsed = readScripts(ctx, text);
    if (parsed === undefined) return [];
    const manager = managerFor(ctx, parsed.pm);
    const checks: FoundCheck[] = [];
    for (const [name, body] of Object.entries(parsed.scripts)) {
      const kind = kindOfName(name);
      if (kind === undefined || typeof body !== "string" || body.trim() === "") continue;
      if (name === "test" && NPM_PLACEHOLDER.test(body)) continue;
      if (!SAFE_NAME.test(name)) {
        ctx.problem("package.json", `script ${JSON.stringify(name)} skipped: unsafe name`);
        continue;
      }
      checks.push({ ecosystem: manager, name, kind, command: scriptCommand(manager, name) });
    }
    return byKind(preferCheckingFormatters(checks));
  },
};
