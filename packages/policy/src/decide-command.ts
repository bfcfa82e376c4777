import { basename } from "node:path";
import type { ParsedCommand, SimpleCommand } from "./action.js";
import { analyseLine, type Line, type RealPaths } from "./command-paths.js";
import { type Decision, type Env, ruleLabel } from "./context.js";
import { type MaybePath, describe, toolRule } from "./decide-paths.js";
import { hasCommandRules, hasPathRules, matchCommand, matchPath, ruleRoot } from "./match.js";
import { isWithinAny } from "./paths.js";
import { protectedWrite } from "./protected.js";
import {
  isReadOnlyCommand,
  isReadOnlySimpleCommand,
  readPathWords,
  readsRecursively,
} from "./read-only.js";
import { displayCommand } from "./shell-chars.js";
import { isDynamicWord } from "./shell-words.js";
import { suggestCommandRule, suggestPathRule } from "./suggest.js";
import type { ListIndex } from "./rule-index.js";
import { allow, ask, deny, planDenial } from "./verdict.js";

/**
 * Decides running a command line: every simple command must be allowed and any denied one
 * denies the line; redirections that write are writes. See the README for the full order.
 */
export function decideCommand(
  env: Env,
  parsed: ParsedCommand,
  cwd: string,
  realPaths?: RealPaths,
  hardLinked?: ReadonlySet<string>,
): Decision {
  const line = analyseLine(env.homeDir, parsed, cwd, realPaths, hardLinked);
  const denied = denyOf(env, line);
  if (denied) return denied;
  if (env.mode === "plan" && !isReadOnlyCommand(parsed))
    return planDenial(`run \`${oneLine(parsed.source)}\``);
  if (env.mode !== "bypass") {
    const asked = protectedWrite(env, line.namedWrites) ?? askOf(env, line);
    if (asked) return asked;
  }
  const unchecked = uncheckable(env, line);
  if (unchecked) return ask(unchecked);
  if (env.mode === "bypass") return allow("bypass mode");
  return allowOrAsk(env, line);
}

/** Words without leading `VAR=value` assignments, so `X=1 rm -rf /` still meets `Bash(rm:*)`. */
function withoutAssignments(argv: readonly string[]): readonly string[] {
  let i = 0;
  while (i < argv.length - 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i] ?? "")) i++;
  return i === 0 ? argv : argv.slice(i);
}

/**
 * Deny and ask rules also meet a command written with leading assignments (`X=1 rm`) or with
 * a path (`/bin/rm`), so those spellings cannot slip past them. Allow rules match exactly.
 */
function matchLoosely(list: ListIndex, argv: readonly string[]) {
  const direct = matchCommand(list, argv);
  if (direct) return direct;
  const bare = withoutAssignments(argv);
  const name = bare[0] ?? "";
  const named =
    name.includes("/") && !isDynamicWord(name) ? [basename(name), ...bare.slice(1)] : bare;
  return named === argv ? undefined : matchCommand(list, named);
}

function denyOf(env: Env, line: Line): Decision | undefined {
  const list = env.index.deny;
  const bare = toolRule(env, list) ?? list.byFamily.get("command");
  if (bare) return deny(`running commands is denied by ${ruleLabel(bare)}`);
  for (const c of line.commands) {
    const rule = matchLoosely(list, c.argv);
    if (rule) return deny(`\`${shownCommand(c)}\` is denied by ${ruleLabel(rule)}`);
  }
  for (const p of line.namedWrites) {
    const rule = p === undefined ? undefined : matchPath(list, "write", p, env);
    if (rule) return deny(`writing ${p} is denied by ${ruleLabel(rule)}`);
  }
  if (hasReadRules(list)) {
    for (const p of line.reads()) {
      const rule = p === undefined ? undefined : matchPath(list, "read", p, env);
      if (rule) return deny(`reading ${p} is denied by ${ruleLabel(rule)}`);
    }
  }
  return undefined;
}

function askOf(env: Env, line: Line): Decision | undefined {
  const list = env.index.ask;
  const bare = toolRule(env, list) ?? list.byFamily.get("command");
  if (bare)
    return ask(`running \`${oneLine(line.parsed.source)}\` needs approval (${ruleLabel(bare)})`);
  for (const c of line.commands) {
    const rule = matchLoosely(list, c.argv);
    if (rule) return ask(`\`${shownCommand(c)}\` needs approval (${ruleLabel(rule)})`);
  }
  for (const p of line.redirectWrites) {
    const rule = p === undefined ? undefined : matchPath(list, "write", p, env);
    if (rule) return ask(`writing ${p} needs approval (${ruleLabel(rule)})`);
  }
  if (hasReadRules(list)) {
    for (const p of line.reads()) {
      const rule = p === undefined ? undefined : matchPath(list, "read", p, env);
      if (rule) return ask(`reading ${p} needs approval (${ruleLabel(rule)})`);
    }
  }
  return undefined;
}

/** Why the deny rules cannot be checked on this line, if they cannot. */
function uncheckable(env: Env, line: Line): string | undefined {
  if (line.parsed.error !== undefined)
    return `the command could not be checked: ${line.parsed.error}`;
  if (line.commands.length === 0 && line.parsed.source.trim() !== "") {
    return "the command holds no simple command to check";
  }
  const deny = env.index.deny;
  if (
    hasCommandRules(deny) &&
    line.commands.some((c) => isDynamicWord(withoutAssignments(c.argv)[0] ?? ""))
  ) {
    return "a command's name is known only at run time, so deny rules cannot be checked";
  }
  if (hasPathRules(deny, "write") && line.namedWrites.includes(undefined)) {
    return "a file the command writes is known only at run time, so deny rules cannot be checked";
  }
  return undefined;
}

function allowOrAsk(env: Env, line: Line): Decision {
  const bare = toolRule(env, env.index.allow) ?? env.index.allow.byFamily.get("command");
  const pendingCommands = bare ? [] : line.commands.filter((c) => !commandAllowed(env, line, c));
  const pendingWrites = line.redirectWrites.filter((p) => !writeAllowed(env, p));
  if (pendingCommands.length === 0 && pendingWrites.length === 0) {
    return allow(bare ? `allowed by ${ruleLabel(bare)}` : "every part of the command is allowed");
  }
  if (
    env.writableRoots &&
    line.namedWrites.every((p) => p !== undefined && isWithinAny(p, env.writableRoots ?? []))
  ) {
    return allow(
      "sandbox auto-allow: every file it names for writing is inside the writable areas",
    );
  }
  const suggestions = [
    ...pendingCommands.flatMap((c) => suggestCommandRule(c.argv) ?? []),
    ...pendingWrites.flatMap((p) =>
      p === undefined ? [] : [suggestPathRule("Edit", p, env.projectRoot)],
    ),
  ];
  const parts = [
    ...pendingCommands.map((c) => `\`${shownCommand(c)}\``),
    ...(pendingWrites.length > 0 ? [`writing ${describe(pendingWrites)}`] : []),
  ];
  return ask(`needs approval: ${parts.join(", ")}`, [...new Set(suggestions)]);
}

function commandAllowed(env: Env, line: Line, c: SimpleCommand): boolean {
  if (matchCommand(env.index.allow, c.argv)) return true;
  if (!env.autoAllowReadOnlyBash || !isReadOnlySimpleCommand(c.argv)) return false;
  if (env.untrustedRepository && c.argv[0] === "git") return false;
  if (!line.bases.every((b) => b !== undefined && isWithinAny(b, env.insideRoots))) return false;
  const words = readPathWords(c.argv);
  const reads = words.flatMap(line.pathsOf);
  if (!reads.every((p) => p !== undefined && isWithinAny(p, env.insideRoots))) return false;
  return !mayReadGuarded(env, c.argv, words, reads.length > 0 ? reads : line.bases);
}

/**
 * True when a read-only command may read a file a Read deny or ask rule guards without naming
 * it: a wildcard (`cat .en?`) or a recursive search of a folder holding guarded files
 * (`grep -r key .` with `Read(./.env)`). Such a command is not auto-allowed.
 */
function mayReadGuarded(
  env: Env,
  argv: readonly string[],
  words: readonly string[],
  reads: readonly MaybePath[],
): boolean {
  if (!hasReadRules(env.index.deny) && !hasReadRules(env.index.ask)) return false;
  if (words.some((w) => /[*?[]/.test(w))) return true;
  if (!readsRecursively(argv)) return false;
  const roots = guardedRoots(env);
  return reads.some(
    (p) => p === undefined || roots.some((r) => isWithinAny(p, [r]) || isWithinAny(r, [p])),
  );
}

/** True when `list` holds Read rules (a bare `Read` or path rules). */
function hasReadRules(list: ListIndex): boolean {
  return list.byFamily.has("read") || hasPathRules(list, "read");
}

const rootsCache = new WeakMap<ListIndex, { ask: ListIndex; key: string; roots: string[] }>();

/** The folders below which Read deny or ask rules may match (each rule's fixed start); cached. */
function guardedRoots(env: Env): string[] {
  const { deny, ask } = env.index;
  const key = `${env.projectRoot}\0${env.homeDir}`;
  const hit = rootsCache.get(deny);
  if (hit && hit.ask === ask && hit.key === key) return hit.roots;
  const bare = deny.byFamily.has("read") || ask.byFamily.has("read");
  const roots = bare ? ["/"] : [...deny.readPaths, ...ask.readPaths].map((r) => ruleRoot(r, env));
  rootsCache.set(deny, { ask, key, roots });
  return roots;
}

function writeAllowed(env: Env, p: MaybePath): boolean {
  if (p === undefined) return false;
  if (matchPath(env.index.allow, "write", p, env)) return true;
  return env.mode === "acceptEdits" && isWithinAny(p, env.insideRoots);
}

function shownCommand(c: SimpleCommand): string {
  return oneLine(c.argv.join(" "));
}

/** A command on one line for a reason, with hidden characters shown (`<U+000D>`). */
function oneLine(text: string): string {
  const flat = displayCommand(text)
    .replace(/[ \t\n]+/g, " ")
    .trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}
