/**
 * Paths inside a project (and each additional directory) that configure the engine, git or
 * other agents: a write there can run code later (a git hook, a settings hook, an MCP server)
 * or widen what the agent may do. The policy makes every write to them ask (in every mode but
 * bypass), and the sandbox keeps them read-only. One list, read by both.
 *
 * Entries are relative, `/`-separated paths; an entry names a file or a whole folder.
 */
export const PROTECTED_PATHS: readonly string[] = [
  ".git",
  ".gitmodules",
  ".z-engine/settings.toml",
  ".z-engine/settings.local.toml",
  // Worktree agents' checkouts: their `.git` files and pending work are the engine's.
  ".z-engine/worktrees",
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".mcp.json",
];

/**
 * Whether a project-relative, `/`-separated path is a protected path or lies inside one.
 * Compares case-insensitively, since macOS and Windows file systems do. Pure; never throws.
 */
export function isProtectedPath(relative: string): boolean {
  const path = relative.replace(/^(\.\/)+/, "").toLowerCase();
  return PROTECTED_PATHS.some((entry) => path === entry || path.startsWith(`${entry}/`));
}
