import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Reminder } from "../reminders.js";
import { type InstructionFs, MAX_INSTRUCTION_FILE_BYTES, readInstruction } from "./fs.js";
import { matchesGlob } from "./glob.js";
import { expandImports, type ImportLimits } from "./imports.js";
import type { Rule } from "./rules.js";
import {
  createScopeChecker,
  type InstructionScope,
  refusedNote,
  type ScopeChecker,
} from "./scope.js";

/** What an `InstructionTracker` watches. */
export interface InstructionTrackerOptions {
  readonly projectRoot: string;
  /** From `discoverInstructions(...).scopedRules`. */
  readonly scopedRules: readonly Rule[];
  /** The door nested files and imports are read through (see `DiscoverOptions.fs`). */
  readonly fs: InstructionFs;
  readonly homeDir?: string;
  readonly importLimits?: ImportLimits;
  /**
   * Where nested files and imports may be read from (`instructionScope(options, "project")`);
   * by default the project folder alone.
   */
  readonly scope?: InstructionScope;
  /** Reminder keys delivered before (a resumed session); they are not produced again. */
  readonly delivered?: Iterable<string>;
}

const NESTED_FILES = ["AGENTS.md", "CLAUDE.md"] as const;

/**
 * Turns touched paths into instruction reminders, each once per session: `AGENTS.md` and
 * `CLAUDE.md` in the folders between the project root (exclusive) and a touched file
 * (inclusive of its folder), and scoped rules whose globs match the file's project-relative
 * path. Paths outside the project produce nothing. A nested file that links out of the scope,
 * and an import out of it, gives a refusal note instead of its text. Concurrent `touch` calls never produce the
 * same reminder twice.
 */
export class InstructionTracker {
  readonly #options: InstructionTrackerOptions;
  readonly #fs: InstructionFs;
  readonly #scope: InstructionScope;
  readonly #checker: ScopeChecker;
  readonly #checkedFolders = new Set<string>();
  readonly #given = new Set<string>();

  constructor(options: InstructionTrackerOptions) {
    this.#options = options;
    this.#fs = options.fs;
    this.#scope = options.scope ?? { roots: [options.projectRoot] };
    this.#checker = createScopeChecker(this.#scope, this.#fs);
    for (const key of options.delivered ?? []) this.#given.add(key);
  }

  /**
   * The reminders that `paths` (absolute, or relative to the project) newly call for:
   * nested files from the shallowest folder down, then matching rules in rule order.
   * Unreadable files are skipped. Never rejects.
   */
  async touch(paths: readonly string[]): Promise<Reminder[]> {
    const root = this.#options.projectRoot;
    const reminders: Reminder[] = [];
    for (const input of paths) {
      const absolute = isAbsolute(input) ? input : resolve(root, input);
      const rel = relative(root, absolute);
      if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
      for (const folder of this.#foldersOf(rel)) reminders.push(...(await this.#nested(folder)));
      reminders.push(...(await this.#rules(rel.split(sep).join("/"))));
    }
    return reminders;
  }

  #foldersOf(rel: string): string[] {
    const folders: string[] = [];
    let current = dirname(rel);
    while (current !== "." && current !== "") {
      folders.unshift(join(this.#options.projectRoot, current));
      current = dirname(current);
    }
    return folders;
  }

  /**
   * Forgets which reminders were given, so each is produced again on its next touch (a
   * rewind of the conversation drops the messages that carried them).
   */
  reset(): void {
    this.#given.clear();
    this.#checkedFolders.clear();
  }

  #claim(key: string): boolean {
    if (this.#given.has(key)) return false;
    this.#given.add(key);
    return true;
  }

  async #nested(folder: string): Promise<Reminder[]> {
    if (this.#checkedFolders.has(folder)) return [];
    this.#checkedFolders.add(folder);
    const out: Reminder[] = [];
    for (const name of NESTED_FILES) {
      const path = join(folder, name);
      const key = `instructions:${path}`;
      if (this.#given.has(key)) continue;
      const admission = await this.#checker.admit(path).catch(() => undefined);
      if (admission === undefined || admission.kind === "missing") continue;
      const read =
        admission.kind === "refused"
          ? { kind: "refused" as const, why: "outside the project" }
          : await readInstruction(this.#fs, path, MAX_INSTRUCTION_FILE_BYTES);
      if (read.kind === "missing") continue;
      const text = read.kind === "refused" ? refusedNote(path, read.why) : read.text;
      if (text.trim() === "" || !this.#claim(key)) continue;
      const expanded = read.kind === "refused" ? text : await this.#expand(text, path);
      const where = relative(this.#options.projectRoot, folder);
      out.push({
        key,
        text: `Instructions from ${path}, for the files under ${where}/:\n\n${expanded}`,
      });
    }
    return out;
  }

  async #rules(rel: string): Promise<Reminder[]> {
    const out: Reminder[] = [];
    for (const rule of this.#options.scopedRules) {
      const key = `rule:${rule.path}`;
      if (this.#given.has(key) || !rule.globs.some((glob) => matchesGlob(rel, glob))) continue;
      if (!this.#claim(key)) continue;
      const expanded = await this.#expand(rule.text, rule.path);
      const about = rule.description === undefined ? "" : ` (${rule.description})`;
      out.push({ key, text: `Rule ${rule.path}${about} applies to ${rel}:\n\n${expanded}` });
    }
    return out;
  }

  async #expand(text: string, path: string): Promise<string> {
    const ctx = {
      fs: this.#fs,
      homeDir: this.#options.homeDir,
      limits: this.#options.importLimits,
      scope: this.#scope,
    };
    return (await expandImports(text, path, ctx)).text.trim();
  }
}
