import { join } from "node:path";
import {
  buildSystemSections,
  type DiscoverOptions,
  discoverInstructions,
  renderSkillsSection,
} from "@z-engine/context";
import { type OutputStyle, outputStyles, parseOutputStyleMarkdown } from "@z-engine/prompts";
import type { CompiledRule } from "@z-engine/policy";
import type { SystemSection } from "@z-engine/protocol";
import {
  definitionDirs,
  type DefinitionRoots,
  discoverSkills,
  type FoundSkill,
  readDefinition,
} from "./discover.js";
import { isPlainName } from "../util/plain-name.js";

/** What a session's system prompt is built from, kept so it can be rebuilt (`/remember`). */
export interface DefinitionInputs {
  readonly base: string;
  readonly environment: string;
  readonly discovery: DiscoverOptions;
  readonly roots: DefinitionRoots;
  /** `appearance.output_style`; undefined or `default` adds nothing. */
  readonly outputStyle: string | undefined;
}

/**
 * Finds an output style: project, .claude project, user, .claude user folders (each read
 * through its door), then the built-ins. A name that is not plain (`../../x`) is refused with
 * a problem, and the default style applies.
 */
export async function findOutputStyle(
  roots: DefinitionRoots,
  name: string,
  problems: string[],
): Promise<OutputStyle | undefined> {
  if (!isPlainName(name)) {
    problems.push(
      `output style "${name}" is not a plain name (it may not hold / or \\, or be . or ..); the default style applies`,
    );
    return undefined;
  }
  for (const { dir, files } of definitionDirs(roots, "output-styles")) {
    const path = join(dir, `${name}.md`);
    const found = await files.admit(path);
    if (!found.ok && found.reason === "missing") continue;
    const text = await readDefinition(files, path, problems);
    if (text === undefined) continue;
    const parsed = parseOutputStyleMarkdown(text, name);
    if (parsed.ok) return parsed.value;
    problems.push(`${path}: ${parsed.error}`);
  }
  const builtin = outputStyles().find((s) => s.name === name);
  if (!builtin) problems.push(`output style "${name}" was not found; the default style applies`);
  return builtin;
}

/**
 * A session's skills, output style and instructions: the parts of its system prompt that
 * come from files. Built at session open; `/remember` marks the instructions stale and the
 * next turn re-reads them (`refresh`).
 */
export class SessionDefinitions {
  private stale = false;
  /** Rules granted by skills loaded in the running turn (taken back at its end). */
  private grants: CompiledRule[] = [];

  private constructor(
    private readonly inputs: DefinitionInputs,
    readonly skills: readonly FoundSkill[],
    private readonly styleText: string,
    private instructionsText: string,
  ) {}

  /** Discovers skills and the output style (the instructions' text comes found); problems are one line each (for notices). Never rejects. */
  static async load(
    inputs: DefinitionInputs,
    instructionsText: string,
  ): Promise<{ definitions: SessionDefinitions; problems: string[] }> {
    const problems: string[] = [];
    const skills = await discoverSkills(inputs.roots);
    problems.push(...skills.problems.map((p) => `skills: ${p}`));
    const name = inputs.outputStyle;
    const style =
      name && name !== "default" ? await findOutputStyle(inputs.roots, name, problems) : undefined;
    const definitions = new SessionDefinitions(
      inputs,
      skills.items,
      style?.prompt ?? "",
      instructionsText,
    );
    return { definitions, problems };
  }

  /** Where instruction discovery looks and the doors it reads through (`/memory` lists them). */
  get discovery(): DiscoverOptions {
    return this.inputs.discovery;
  }

  /** The user's config folder (`/remember --user` writes its AGENTS.md). */
  get userConfigDir(): string {
    return this.inputs.roots.userConfigDir;
  }

  /** The system sections (cache-stable: the same inputs give the same bytes). */
  sections(): SystemSection[] {
    return buildSystemSections({
      base: this.inputs.base,
      environment: this.inputs.environment,
      instructions: this.instructionsText,
      skills: renderSkillsSection(
        this.skills
          .filter((s) => !s.disableModelInvocation)
          .map((s) => ({
            name: s.name,
            description: s.whenToUse
              ? `${s.description} (when to use: ${s.whenToUse})`
              : s.description,
          })),
      ),
      outputStyle: this.styleText,
    });
  }

  /** Remembers rules a skill granted for the running turn. */
  addGrants(rules: readonly CompiledRule[]): void {
    this.grants.push(...rules);
  }

  /** The rules skills granted in the turn now ending (and forgets them). */
  takeGrants(): CompiledRule[] {
    return this.grants.splice(0);
  }

  /** The instruction files changed (`/remember`): the next turn re-reads them. */
  markStale(): void {
    this.stale = true;
  }

  /** Re-reads the instructions when stale; returns the new sections, or undefined when unchanged. */
  async refresh(): Promise<SystemSection[] | undefined> {
    if (!this.stale) return undefined;
    this.stale = false;
    const found = await discoverInstructions(this.inputs.discovery);
    if (found.systemText === this.instructionsText) return undefined;
    this.instructionsText = found.systemText;
    return this.sections();
  }
}
