/** How deep the names of changed settings go: `mcp.servers.github`, `model.main`, `permissions.allow`. */
const DEPTH = 3;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function walk(a: unknown, b: unknown, path: string, depth: number, out: string[]): void {
  if (same(a, b)) return;
  if (depth >= DEPTH || !isRecord(a) || !isRecord(b)) {
    out.push(path);
    return;
  }
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const key of keys) walk(a[key], b[key], path ? `${path}.${key}` : key, depth + 1, out);
}

/**
 * The dotted names of the settings that differ between two effective settings (or any two
 * JSON values of the same shape), sorted: a section's keys, and one level further for maps of
 * named entries (`mcp.servers.github`, `lsp.servers.zls`, `hooks.PreToolUse`). Lists compare
 * whole. Names only, never values (an `[env]` value may be a secret). Pure.
 */
export function changedSettings(before: unknown, after: unknown): string[] {
  const out: string[] = [];
  walk(before, after, "", 0, out);
  return out;
}

/** The entry names under `prefix` (`mcp.servers`) among changed settings, sorted, once each. */
export function changedEntries(changed: readonly string[], prefix: string): string[] {
  const names = new Set<string>();
  const start = `${prefix}.`;
  for (const key of changed) {
    if (key === prefix) return ["*"];
    if (key.startsWith(start)) names.add(key.slice(start.length).split(".")[0] ?? "");
  }
  return [...names].filter((n) => n !== "").sort();
}
