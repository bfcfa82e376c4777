import { type CompiledGlob, compileGlob } from "./glob.js";
import { normalizeRoot } from "./paths.js";
import { type Rule, parseRule } from "./rule.js";

/**
 * Where a rule came from: a label for messages (a settings file's path, "session", "--allow")
 * and the project root of that settings file, which `/path` rules start from (when absent,
 * they start from the session's project).
 */
export interface RuleOrigin {
  readonly source: string;
  readonly root?: string;
}

/** A rule ready to match: the parsed rule, its origin and its compiled matcher. */
export interface CompiledRule {
  readonly rule: Rule;
  readonly origin: RuleOrigin;
  /** For `command` rules: a test over a simple command's words. */
  readonly commandTest?: (argv: readonly string[]) => boolean;
  /** For `command` rules: the literal first word, when the rule has one. */
  readonly firstWord?: string;
  /** For `path` rules: the compiled glob. */
  readonly glob?: CompiledGlob;
}

/** A rule text that could not be used, with where it came from. It is skipped. */
export interface RuleError {
  readonly text: string;
  readonly error: string;
  readonly source: string;
}

/**
 * Parses and compiles rule texts from one origin. Never throws: a text in no known form is
 * reported in `errors` and skipped; the other rules keep their order.
 */
export function compileRules(
  texts: readonly string[],
  origin: RuleOrigin,
): { rules: CompiledRule[]; errors: RuleError[] } {
  const rules: CompiledRule[] = [];
  const errors: RuleError[] = [];
  const o = origin.root === undefined ? origin : { ...origin, root: normalizeRoot(origin.root) };
  for (const text of texts) {
    const parsed = parseRule(text);
    if (parsed.ok) rules.push(compileRule(parsed.rule, o));
    else errors.push({ text, error: parsed.error, source: origin.source });
  }
  return { rules, errors };
}

/** Compiles one parsed rule. Never throws. `origin.root` must be an absolute folder path. */
export function compileRule(rule: Rule, origin: RuleOrigin): CompiledRule {
  switch (rule.kind) {
    case "command":
      return { rule, origin, ...compileCommand(rule.match, rule.words, rule.pattern) };
    case "path":
      return {
        rule,
        origin,
        glob: compileGlob(
          rule.pattern,
          rule.anchor === "project" && !rule.pattern.replace(/\/+$/, "").includes("/"),
        ),
      };
    default:
      return { rule, origin };
  }
}

function compileCommand(
  match: "exact" | "prefix" | "wildcard",
  words: readonly string[],
  pattern: string,
): { commandTest: (argv: readonly string[]) => boolean; firstWord?: string } {
  const first = words[0];
  if (match === "exact") {
    return { firstWord: first, commandTest: (argv) => sameWords(argv, words, false) };
  }
  if (match === "prefix") {
    return { firstWord: first, commandTest: (argv) => sameWords(argv, words, true) };
  }
  const regex = wildcardRegex(words.join(" ") || pattern);
  const literalFirst = first !== undefined && !first.includes("*") ? first : undefined;
  const test = (argv: readonly string[]) => regex.test(argv.join(" "));
  return literalFirst === undefined
    ? { commandTest: test }
    : { firstWord: literalFirst, commandTest: test };
}

function sameWords(argv: readonly string[], words: readonly string[], prefix: boolean): boolean {
  if (prefix ? argv.length < words.length : argv.length !== words.length) return false;
  for (let i = 0; i < words.length; i++) if (argv[i] !== words[i]) return false;
  return true;
}

/**
 * `*` matches any text (spaces included); a single trailing ` *` is optional, so `ls *`
 * matches `ls` and `ls -la` but not `lsof`. `\*` is a literal star.
 */
function wildcardRegex(pattern: string): RegExp {
  const normalized = pattern.trim().split(/\s+/).join(" ");
  const stars = normalized.match(/(?<!\\)\*/g)?.length ?? 0;
  const optionalTail = stars === 1 && normalized.endsWith(" *");
  const body = optionalTail ? normalized.slice(0, -2) : normalized;
  let re = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] ?? "";
    if (ch === "\\" && body[i + 1] === "*") {
      re += "\\*";
      i++;
    } else if (ch === "*") re += ".*";
    else re += ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${re}${optionalTail ? "(?: .*)?" : ""}$`, "s");
}
