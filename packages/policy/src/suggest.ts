import { parentOf, relativeTo } from "./paths.js";
import { isDynamicWord } from "./shell-words.js";

/** Programs whose second word is a subcommand, so `git push` rather than `git` is suggested. */
const SUBCOMMAND_TOOLS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "npx",
  "deno",
  "cargo",
  "go",
  "docker",
  "podman",
  "kubectl",
  "helm",
  "make",
  "just",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "gh",
  "dotnet",
  "mvn",
  "gradle",
  "./gradlew",
  "bundle",
  "rake",
  "composer",
  "terraform",
  "brew",
  "apt",
  "apt-get",
  "systemctl",
  "rustup",
  "mix",
  "swift",
  "zig",
  "turbo",
  "nx",
  "vitest",
  "jest",
]);

/**
 * The prefix rule to suggest for a simple command: its first word, or its first two when the
 * program takes a subcommand (`Bash(npm test:*)`, `Bash(git push:*)`, `Bash(ls:*)`).
 * Undefined when the command's name is only known at run time.
 */
export function suggestCommandRule(argv: readonly string[]): string | undefined {
  const [first, second] = argv;
  if (first === undefined || isDynamicWord(first) || first.includes("=") || /[()]/.test(first))
    return undefined;
  const useSecond =
    second !== undefined &&
    SUBCOMMAND_TOOLS.has(first) &&
    /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/.test(second) &&
    !isDynamicWord(second);
  return `Bash(${useSecond ? `${first} ${second}` : first}:*)`;
}

/**
 * The path rule to suggest for a path a call reads or writes: its folder and everything below,
 * as `/dir/**` from the project when inside it (the project's settings hold the rule), else as
 * an absolute `//dir/**`. A write at the project root suggests `Edit(/**)`.
 */
export function suggestPathRule(tool: "Read" | "Edit", path: string, projectRoot: string): string {
  const dir = escapeGlob(parentOf(path));
  const rel = relativeTo(dir, escapeGlob(projectRoot));
  if (rel !== undefined) return rel === "" ? `${tool}(/**)` : `${tool}(/${rel}/**)`;
  return dir === "/" ? `${tool}(//**)` : `${tool}(/${dir}/**)`;
}

/** The rule to suggest for a network action. */
export function suggestDomainRule(domain: string): string {
  return `WebFetch(domain:${domain.toLowerCase()})`;
}

/** The rule to suggest for an MCP call. */
export function suggestMcpRule(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

function escapeGlob(path: string): string {
  return path.replace(/[*?[\\]/g, "\\$&");
}
