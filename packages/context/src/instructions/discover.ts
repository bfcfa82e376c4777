import { join, relative, sep } from "node:path";
import { type InstructionFs, MAX_INSTRUCTION_FILE_BYTES, readInstruction } from "./fs.js";
import { expandImports, type ImportLimits } from "./imports.js";
import { parseRule, type Rule } from "./rules.js";
import { createScopeChecker, type InstructionScope, refusedNote } from "./scope.js";

/** Where to look for instruction files. Folders are absolute. */
export interface DiscoverOptions {
  /** The user's config folder, holding their own `AGENTS.md`. */
  readonly userConfigDir?: string;
  /** The git toplevel; files are read from here down to the project. */
  readonly repoRoot?: string;
  /** The folder the session runs in. */
  readonly projectRoot: string;
  readonly homeDir?: string;
  /**
   * The door every project file and import is read through (the engine's: real paths, regular
   * files only, bounded reads, the session's Read rules).
   */
  readonly fs: InstructionFs;
  /**
   * The door for the user's own `AGENTS.md` and its imports (default `fs`): the user's file
   * may be a link anywhere, so the engine hands one whose roots are not the project's.
   */
  readonly userFs?: InstructionFs;
  readonly importLimits?: ImportLimits;
  /**
   * Asked about an instruction file or import outside the repository (or project) and the
   * user's config folder: its real path, the path as written, and the kind of file that
   * imports it. True lets it in. Absent: nothing outside is read (an untrusted project).
   */
  readonly readAllowed?: (
    realPath: string,
    writtenPath: string,
    importer: InstructionFile["kind"],
  ) => boolean | Promise<boolean>;
}

/** One instruction file that made it into the system prompt, imports expanded. */
export interface InstructionFile {
  readonly path: string;
  readonly kind: "user" | "project" | "local" | "rule";
  readonly text: string;
}

/** What discovery found. */
export interface InstructionSet {
  /** The instructions section's text (empty when there is none): files in precedence order. */
  readonly systemText: string;
  /** The files in the section, lowest precedence first (always-applied rules last). */
  readonly files: readonly InstructionFile[];
  /** Rules that apply only when a touched path matches their globs (for `InstructionTracker`). */
  readonly scopedRules: readonly Rule[];
  /** Unreadable files, bad rule frontmatter, import cycles and cuts. */
  readonly problems: readonly string[];
}

/** The folders from `repoRoot` down to `projectRoot`, or just the project when it is outside the repo. */
export function foldersDownTo(repoRoot: string | undefined, projectRoot: string): string[] {
  if (repoRoot === undefined) return [projectRoot];
  const rel = relative(repoRoot, projectRoot);
  if (rel.startsWith("..") || rel.startsWith(sep)) return [projectRoot];
  const folders = [repoRoot];
  let current = repoRoot;
  for (const part of rel.split(sep).filter((p) => p !== "")) {
    current = join(current, part);
    folders.push(current);
  }
  return folders;
}

/**
 * The scope instruction files of `importer`'s kind and their imports are read in: the
 * repository root (or the project, when it is outside the repository) and the user's config
 * folder, and beyond them what `options.readAllowed` lets in.
 */
export function instructionScope(
  options: DiscoverOptions,
  importer: InstructionFile["kind"],
): InstructionScope {
  const top = foldersDownTo(options.repoRoot, options.projectRoot)[0] ?? options.projectRoot;
  const roots = options.userConfigDir === undefined ? [top] : [top, options.userConfigDir];
  // The user's ~/.claude/CLAUDE.md imports files beside it, as Claude Code reads them.
  if (importer === "user" && options.homeDir !== undefined)
    roots.push(join(options.homeDir, ".claude"));
  const ask = options.readAllowed;
  return ask === undefined
    ? { roots }
    : { roots, allowOutside: (real, written) => ask(real, written, importer) };
}

/** A top-level instruction file discovery looks for (it may not exist). */
export interface InstructionCandidate {
  readonly path: string;
  readonly kind: "user" | "project" | "local";
}

/**
 * The top-level instruction files {@link discoverInstructions} reads, in its precedence order
 * (lowest first), whether or not they exist: `~/.claude/CLAUDE.md`, the user's `AGENTS.md`,
 * then `AGENTS.md`, `CLAUDE.md` and `.claude/CLAUDE.md` of each folder from the repository
 * root down to the project, then the project's `AGENTS.local.md` and `CLAUDE.local.md`. Rules
 * (`.claude/rules/`) are not among them. Pure: reads nothing.
 */
export function instructionCandidates(
  options: Pick<DiscoverOptions, "homeDir" | "userConfigDir" | "repoRoot" | "projectRoot">,
): InstructionCandidate[] {
  const out: InstructionCandidate[] = [];
  if (options.homeDir !== undefined)
    out.push({ path: join(options.homeDir, ".claude", "CLAUDE.md"), kind: "user" });
  if (options.userConfigDir !== undefined)
    out.push({ path: join(options.userConfigDir, "AGENTS.md"), kind: "user" });
  for (const folder of foldersDownTo(options.repoRoot, options.projectRoot)) {
    out.push({ path: join(folder, "AGENTS.md"), kind: "project" });
    out.push({ path: join(folder, "CLAUDE.md"), kind: "project" });
    out.push({ path: join(folder, ".claude", "CLAUDE.md"), kind: "project" });
  }
  out.push({ path: join(options.projectRoot, "AGENTS.local.md"), kind: "local" });
  out.push({ path: join(options.projectRoot, "CLAUDE.local.md"), kind: "local" });
  return out;
}

/** How deep `.claude/rules/` subfolders are read (Claude Code reads them recursively). */
const MAX_RULE_DEPTH = 8;

/**
 * The `.md` files of a rules folder, sorted; subfolders too when `depth` > 0 (only
 * `.claude/rules/**` nests). A missing folder gives none; another error is a problem.
 */
async function ruleFiles(folder: string, fs: InstructionFs, depth: number): Promise<string[]> {
  // A folder that is missing or cannot be listed holds no rules (most projects have none).
  const entries = (await fs.list(folder).catch(() => undefined)) ?? [];
  const out: string[] = [];
  for (const entry of [...entries].sort((x, y) => x.name.localeCompare(y.name))) {
    const path = join(folder, entry.name);
    if ((entry.kind === "file" || entry.kind === "link") && entry.name.endsWith(".md"))
      out.push(path);
    else if (
      entry.kind === "folder" &&
      depth > 0 &&
      depth < MAX_RULE_DEPTH &&
      !entry.name.startsWith(".")
    )
      out.push(...(await ruleFiles(path, fs, depth + 1)));
  }
  return out;
}

/** A rule file and whether it is the user's own (`~/.claude/rules/`, read through the user's door). */
interface RulePath {
  readonly path: string;
  readonly user: boolean;
}

async function rulePaths(options: DiscoverOptions): Promise<RulePath[]> {
  const userFs = options.userFs ?? options.fs;
  const user =
    options.homeDir === undefined
      ? []
      : await ruleFiles(join(options.homeDir, ".claude", "rules"), userFs, 1);
  const project = [
    ...(await ruleFiles(join(options.projectRoot, ".z-engine", "rules"), options.fs, 0)),
    ...(await ruleFiles(join(options.projectRoot, ".claude", "rules"), options.fs, 1)),
  ];
  return [
    ...user.map((path) => ({ path, user: true })),
    ...project.map((path) => ({ path, user: false })),
  ];
}

async function readRules(
  options: DiscoverOptions,
  problems: string[],
  refused: InstructionFile[],
): Promise<Array<Rule & { readonly user: boolean }>> {
  const checker = createScopeChecker(instructionScope(options, "rule"), options.fs);
  const rules: Array<Rule & { readonly user: boolean }> = [];
  for (const { path, user } of await rulePaths(options)) {
    // The user's own rules may link anywhere (the user made them), as their CLAUDE.md may.
    const admitted = user ? "admitted" : await admitFile(path, checker, problems);
    if (admitted === "refused") refused.push({ path, kind: "rule", text: refusedNote(path) });
    if (admitted !== "admitted") continue;
    const text = await readTop(user ? (options.userFs ?? options.fs) : options.fs, path, problems);
    if (text === undefined) continue;
    if (typeof text !== "string") {
      refused.push({ path, kind: "rule", text: text.note });
      continue;
    }
    const parsed = parseRule(text, path);
    if (parsed.ok) rules.push({ ...parsed.rule, user });
    else problems.push(parsed.error);
  }
  return rules;
}

/**
 * A top-level instruction file's text through the door (cut past
 * {@link MAX_INSTRUCTION_FILE_BYTES}, with a note), undefined when missing, or the note that
 * stands in for a file the door refused; problems are listed.
 */
async function readTop(
  fs: InstructionFs,
  path: string,
  problems: string[],
): Promise<string | { note: string } | undefined> {
  const read = await readInstruction(fs, path, MAX_INSTRUCTION_FILE_BYTES);
  if (read.kind === "missing") return undefined;
  if (read.kind === "refused") {
    problems.push(`${path} refused: ${read.problem}`);
    return { note: refusedNote(path, read.why) };
  }
  if (!read.cut) return read.text;
  problems.push(`${path} cut to ${MAX_INSTRUCTION_FILE_BYTES} bytes`);
  return `${read.text}\n[… ${path} cut: instruction file size limit]`;
}

/** Whether an instruction file may be read; a refusal is listed in `problems`. */
async function admitFile(
  path: string,
  checker: ReturnType<typeof createScopeChecker>,
  problems: string[],
): Promise<"admitted" | "refused" | "missing"> {
  try {
    const admission = await checker.admit(path);
    if (admission.kind === "refused")
      problems.push(`${path} refused: it links to ${admission.real}, outside the project`);
    return admission.kind;
  } catch (error) {
    problems.push(`could not read ${path}: ${String(error)}`);
    return "missing";
  }
}

/** Renders files as the instructions section. */
export function renderInstructions(files: readonly InstructionFile[]): string {
  if (files.length === 0) return "";
  const blocks = files.map(
    (file) => `<instructions source="${file.path}">\n${file.text.trim()}\n</instructions>`,
  );
  return [
    "# Instructions",
    "The user's and the project's instructions follow. Follow them; where two conflict, the later one takes precedence.",
    ...blocks,
  ].join("\n\n");
}

/**
 * Reads the instruction files in precedence order (lowest first): the user's `AGENTS.md`,
 * (after `~/.claude/CLAUDE.md`), then `AGENTS.md`, `CLAUDE.md` and `.claude/CLAUDE.md` in
 * each folder from the repository root down to the project, then the project's
 * `AGENTS.local.md` and `CLAUDE.local.md`, then the always-applied rules of the user's
 * `~/.claude/rules/**` (read like their `CLAUDE.md`), `.z-engine/rules/` and `.claude/rules/**`. Imports are expanded. Missing files are skipped; unreadable ones,
 * bad rules and import troubles are listed in `problems`. A project file (or rule) whose real
 * path is outside {@link instructionScope}, and any such import, is not read: a note
 * `[import @path refused: outside the project]` stands in its place. The user's own
 * `AGENTS.md` may be a link anywhere (the user made it). Never rejects.
 */
export async function discoverInstructions(options: DiscoverOptions): Promise<InstructionSet> {
  const problems: string[] = [];
  const fsOf = (kind: InstructionFile["kind"]) =>
    kind === "user" ? (options.userFs ?? options.fs) : options.fs;
  const ctx = (kind: InstructionFile["kind"]) => ({
    fs: fsOf(kind),
    homeDir: options.homeDir,
    limits: options.importLimits,
    scope: instructionScope(options, kind),
  });
  const checker = createScopeChecker(instructionScope(options, "project"), options.fs);
  const files: InstructionFile[] = [];
  for (const { path, kind } of instructionCandidates(options)) {
    const admitted = kind === "user" ? "admitted" : await admitFile(path, checker, problems);
    if (admitted === "refused") files.push({ path, kind, text: refusedNote(path) });
    if (admitted !== "admitted") continue;
    const text = await readTop(fsOf(kind), path, problems);
    if (text === undefined) continue;
    if (typeof text !== "string") {
      files.push({ path, kind, text: text.note });
      continue;
    }
    if (text.trim() === "") continue;
    const expanded = await expandImports(text, path, ctx(kind));
    problems.push(...expanded.problems);
    files.push({ path, kind, text: expanded.text });
  }
  const refusedRules: InstructionFile[] = [];
  const rules = await readRules(options, problems, refusedRules);
  files.push(...refusedRules);
  for (const rule of rules.filter((r) => r.alwaysApply && r.text !== "")) {
    const expanded = await expandImports(rule.text, rule.path, ctx(rule.user ? "user" : "rule"));
    problems.push(...expanded.problems);
    files.push({ path: rule.path, kind: "rule", text: expanded.text });
  }
  return {
    systemText: renderInstructions(files),
    files,
    scopedRules: rules.filter((r) => !r.alwaysApply).map(({ user: _, ...rule }) => rule),
    problems,
  };
}
