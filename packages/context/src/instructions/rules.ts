import {
  frontmatterBoolean,
  frontmatterList,
  frontmatterString,
  parseFrontmatter,
} from "@z-engine/prompts";

/** A rule file from `.z-engine/rules/*.md` or `.claude/rules/` (subfolders too). */
export interface Rule {
  readonly path: string;
  readonly description: string | undefined;
  /** Project-relative globs; empty for a rule that always applies. */
  readonly globs: readonly string[];
  readonly alwaysApply: boolean;
  readonly text: string;
}

/**
 * Parses a rule file. Frontmatter `globs` or Claude Code's `paths` (a list or a comma list), `alwaysApply` and
 * `description`. A rule with `alwaysApply: true`, or with no globs at all, always applies;
 * otherwise it applies when a touched path matches one of its globs. Never throws: bad
 * frontmatter gives `{ ok: false, error }`.
 */
export function parseRule(
  text: string,
  path: string,
): { ok: true; rule: Rule } | { ok: false; error: string } {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return { ok: false, error: `${path}: ${parsed.error}` };
  // `paths` is Claude Code's name for a rule's globs (`.claude/rules/`).
  const globs = frontmatterList(parsed.data.globs) ?? frontmatterList(parsed.data.paths) ?? [];
  const always = frontmatterBoolean(parsed.data.alwaysApply) ?? false;
  return {
    ok: true,
    rule: {
      path,
      description: frontmatterString(parsed.data.description),
      globs: always ? [] : globs,
      alwaysApply: always || globs.length === 0,
      text: parsed.body.trim(),
    },
  };
}
