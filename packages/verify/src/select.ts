import { isAbsolute, relative, sep } from "node:path";
import type { CheckDefinition, CheckId } from "@z-engine/protocol";

export interface SelectOptions {
  /** Needed only when changed paths are absolute: they are made relative to it. */
  readonly projectRoot?: string;
}

/** A changed path as project-relative with `/`, or undefined when it is outside the project. */
function normalise(path: string, root: string | undefined): string | undefined {
  let rel = path;
  if (isAbsolute(path)) {
    if (root === undefined) return undefined;
    rel = relative(root, path);
  }
  rel = rel.split(sep).join("/").replace(/\\/g, "/").replace(/^\.\//, "");
  const parts: string[] = [];
  for (const part of rel.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

const contains = (folder: string, path: string) =>
  folder === "." || path === folder || path.startsWith(`${folder}/`);

const ecosystemOf = (check: CheckDefinition) => check.id.slice(0, check.id.indexOf(":"));

/**
 * The test checks that cover the changed paths. For each path, the nearest folder holding
 * test checks (its own package) is found; from that folder the first test check of each
 * ecosystem is taken (discovery lists the primary one, such as `npm test`, first). When no
 * path falls in any such folder, or no path is given, every test check is returned.
 * Order follows `checks`; pure and never throws. Paths outside the project are ignored.
 */
export function selectChecks(
  checks: readonly CheckDefinition[],
  changedPaths: readonly string[],
  options: SelectOptions = {},
): CheckDefinition[] {
  const tests = checks.filter((c) => c.kind === "test");
  const folders = [...new Set(tests.map((c) => c.cwd))].sort((a, b) => depth(b) - depth(a));
  const chosen = new Set<string>();
  for (const raw of changedPaths) {
    const path = normalise(raw, options.projectRoot);
    if (path === undefined) continue;
    const nearest = folders.find((folder) => contains(folder, path));
    if (nearest !== undefined) chosen.add(nearest);
  }
  if (chosen.size === 0) return tests;
  const seen = new Set<string>();
  return tests.filter((check) => {
    if (!chosen.has(check.cwd)) return false;
    const key = `${check.cwd}\u0000${ecosystemOf(check)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const depth = (folder: string) => (folder === "." ? 0 : folder.split("/").length);

/** Input of {@link autoCheckIds}. */
export interface AutoCheckInput {
  /** The checks the agent can run (merged, with project checks withheld when untrusted). */
  readonly checks: readonly CheckDefinition[];
  /** `verification.auto_checks`; empty or absent means the default selection. */
  readonly configured?: readonly string[];
  readonly changedPaths: readonly string[];
  readonly projectRoot?: string;
}

/**
 * The checks auto and strict modes run: `verification.auto_checks` when set (ids not among
 * `checks` are returned in `unknown`, never run), else the discovered test checks selected
 * for the changed paths (see {@link selectChecks}). Pure.
 */
export function autoCheckIds(input: AutoCheckInput): { ids: CheckId[]; unknown: string[] } {
  const configured = input.configured ?? [];
  if (configured.length > 0) {
    const known = new Map(input.checks.map((c) => [c.id as string, c.id]));
    const ids: CheckId[] = [];
    const unknown: string[] = [];
    for (const id of configured) {
      const found = known.get(id);
      if (found === undefined) unknown.push(id);
      else if (!ids.includes(found)) ids.push(found);
    }
    return { ids, unknown };
  }
  const discovered = input.checks.filter((c) => c.source === "discovered");
  const root = input.projectRoot === undefined ? {} : { projectRoot: input.projectRoot };
  return { ids: selectChecks(discovered, input.changedPaths, root).map((c) => c.id), unknown: [] };
}
