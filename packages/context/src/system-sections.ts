import type { SystemSection } from "@z-engine/protocol";

/**
 * The texts of the system prompt. Every one must stay the same for the whole session (or
 * until a compaction or reload): whatever changes within a session goes into reminders.
 */
export interface SystemSectionsInput {
  /** The base prompt (prompts' `basePrompt()`, or an agent's own prompt). */
  readonly base: string;
  /** The environment snapshot taken at session start (`renderEnvironment`). */
  readonly environment?: string;
  /** Instruction files and always-applied rules (`discoverInstructions(...).systemText`). */
  readonly instructions?: string;
  /** The skills list (`renderSkillsSection`). */
  readonly skills?: string;
  /** The active output style's prompt; empty for the default style. */
  readonly outputStyle?: string;
  /** The repo map; rebuilt only after a compaction or reload. */
  readonly repoMap?: string;
}

/** The section ids, in their cache-stable order. */
export const SYSTEM_SECTION_ORDER = [
  "base",
  "environment",
  "instructions",
  "skills",
  "outputStyle",
  "repoMap",
] as const;

/**
 * The system sections in cache-stable order (base, environment, instructions, skills,
 * output style, repo map), leaving out empty ones. All are `cacheable`. The same input gives
 * byte-identical sections. Never throws.
 */
export function buildSystemSections(input: SystemSectionsInput): SystemSection[] {
  const sections: SystemSection[] = [];
  for (const id of SYSTEM_SECTION_ORDER) {
    const text = input[id]?.trim();
    if (text !== undefined && text !== "") sections.push({ id, text, cacheable: true });
  }
  return sections;
}

/** What the environment section states; take it once at session start. */
export interface EnvironmentInfo {
  readonly projectRoot: string;
  readonly repoRoot?: string;
  readonly platform: string;
  readonly osRelease?: string;
  readonly shell?: string;
  /** The session's start date as `YYYY-MM-DD`. */
  readonly date: string;
  readonly model?: string;
  readonly additionalDirs?: readonly string[];
}

/** The environment section's text, one fact a line, in a fixed order. */
export function renderEnvironment(info: EnvironmentInfo): string {
  const lines = ["# Environment", `Working directory: ${info.projectRoot}`];
  lines.push(
    info.repoRoot === undefined ? "Git repository: no" : `Git repository root: ${info.repoRoot}`,
  );
  lines.push(`Platform: ${info.platform}${info.osRelease ? ` ${info.osRelease}` : ""}`);
  if (info.shell !== undefined) lines.push(`Shell: ${info.shell}`);
  lines.push(`Session started: ${info.date}`);
  if (info.model !== undefined) lines.push(`Model: ${info.model}`);
  if (info.additionalDirs !== undefined && info.additionalDirs.length > 0) {
    lines.push(`Additional directories: ${info.additionalDirs.join(", ")}`);
  }
  return lines.join("\n");
}

/** A skill as listed in the system prompt. */
export interface SkillSummary {
  readonly name: string;
  readonly description: string;
}

/** The skills section: one line per skill, sorted by name; empty when there are none. */
export function renderSkillsSection(skills: readonly SkillSummary[]): string {
  if (skills.length === 0) return "";
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [
    "# Skills",
    "Load a skill with the Skill tool when the task matches its description.",
    ...sorted.map((skill) => `- ${skill.name}: ${skill.description}`),
  ].join("\n");
}
