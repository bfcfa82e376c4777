import { decideWithSandbox } from "../core/unconfined.js";
import {
  type CompiledRule,
  compileRules,
  decide,
  parseCommand,
  type PermissionRules,
} from "@z-engine/policy";
import type { CommandDefinition } from "@z-engine/prompts";
import { resolveAgentModel, sessionModels } from "../agents/agent-model.js";
import type { Submission } from "../run/turn.js";
import { effectiveRules } from "../batch/gate.js";
import type { CommandHost } from "./host.js";
import type { CustomCommand } from "../definitions/discover.js";
import { type ExpandPorts, expandTemplate } from "./expand.js";
import { includeDoor } from "../core/project-doors.js";
import { frontmatterHookTable } from "../hooks/frontmatter-table.js";
import type { HookTable } from "../hooks/types.js";

/** A prompt command ready to start its turn, and notes for what expansion left out. */
export interface PreparedTurn {
  readonly submission: Submission;
  readonly notes: readonly string[];
}

const OUTPUT_LIMIT = 30_000;
const COMMAND_TIMEOUT_MS = 120_000;

/** The turn's user message: the visible `/name args`, then the body in `<command>`. */
export function commandSubmission(
  name: string,
  args: string,
  body: string,
  extra: { rules?: readonly CompiledRule[]; model?: string | undefined; hooks?: HookTable } = {},
): Submission {
  return {
    text: args.trim() === "" ? `/${name}` : `/${name} ${args.trim()}`,
    blocks: [{ type: "text", text: `<command name="${name}">\n${body}\n</command>` }],
    ...(extra.rules && extra.rules.length > 0 ? { rules: extra.rules } : {}),
    ...(extra.model ? { model: extra.model } : {}),
    ...(extra.hooks && Object.keys(extra.hooks).length > 0 ? { hooks: extra.hooks } : {}),
  };
}

/**
 * A command's `hooks:` for its turn: none for a project's command in an untrusted folder (its
 * hooks are project code, gated like the project's settings); notes for what cannot run.
 */
function turnHooks(
  name: string,
  definition: CommandDefinition | CustomCommand,
  granted: boolean,
  notes: string[],
): HookTable | undefined {
  const { table, problems } = frontmatterHookTable(definition.hooks, "Stop");
  notes.push(...problems.map((p) => `/${name}: ${p}`));
  if (Object.keys(table).length === 0) return undefined;
  if (granted) return table;
  notes.push(`/${name}: this folder is not trusted, so the command's hooks do not run`);
  return undefined;
}

/** Whether a command's allowed-tools count: not for a project's command in an untrusted folder. */
function grants(host: CommandHost, definition: CommandDefinition | CustomCommand): boolean {
  return !("scope" in definition && definition.scope === "project" && !host.trusted);
}

function portsFor(
  host: CommandHost,
  rules: PermissionRules,
  mayRun: boolean,
  signal: AbortSignal,
): ExpandPorts {
  const context = {
    projectRoot: host.projectRoot,
    additionalDirectories: host.additionalDirectories,
    homeDir: host.homeDir,
    autoAllowReadOnlyBash: host.config.settings.permissions.auto_allow_read_only_bash ?? false,
    engineDirs: host.engineDirs,
    untrustedRepository: !host.trusted,
  };
  return {
    projectRoot: host.projectRoot,
    homeDir: host.homeDir,
    files: includeDoor(
      { projectRoot: host.projectRoot, homeDir: host.homeDir },
      () => ({
        trusted: host.trusted,
        mode: host.mode,
        rules,
        additionalDirectories: host.additionalDirectories,
      }),
      rules,
    ),
    canRun: async (command) => {
      if (!mayRun) return false;
      const parsed = await parseCommand(command);
      const action = { kind: "command" as const, command: parsed, cwd: host.projectRoot };
      // A `!` line asks no one: it runs only when allowed (never by bypass alone when the
      // sandbox it relied on cannot run).
      const decision = decideWithSandbox(host.sandbox, host.mode, [action], (mode) =>
        decide({ toolName: "Bash", actions: [action] }, mode, rules, context),
      );
      return decision.type === "allow";
    },
    run: async (command) => {
      const result = await host.shell.run({
        command,
        cwd: host.projectRoot,
        timeoutMs: COMMAND_TIMEOUT_MS,
        maxOutputChars: OUTPUT_LIMIT,
        signal,
      });
      const status =
        result.error ?? (result.exitCode === 0 ? "" : `exit ${result.exitCode ?? "killed"}`);
      return status ? `${result.output.trimEnd()}\n[${status}]` : result.output;
    },
  };
}

/**
 * Expands a prompt command (custom or built-in) into its turn: allowed-tools become rules for
 * that turn only (none for a project's command in an untrusted folder, whose `!` lines also
 * never run), `@path` files are inlined where a Read is allowed, `!` lines run where the
 * command's rules or the session's allow them, and its `hooks:` run during that turn (with
 * the same trust rule). Never rejects for a template problem.
 */
export async function preparePromptTurn(
  host: CommandHost,
  name: string,
  args: string,
  definition: CommandDefinition | CustomCommand,
  signal: AbortSignal,
): Promise<PreparedTurn> {
  const granted = grants(host, definition);
  const compiled = granted
    ? compileRules([...definition.allowedTools], { source: `/${name}`, root: host.projectRoot })
    : { rules: [], errors: [] };
  const base = effectiveRules(host);
  const rules: PermissionRules = { ...base, allow: [...compiled.rules, ...base.allow] };
  const expanded = await expandTemplate(
    definition.body,
    args,
    portsFor(host, rules, granted, signal),
  );
  const notes = [
    ...compiled.errors.map((e) => `/${name}: allowed-tools "${e.text}" ignored: ${e.error}`),
    ...expanded.notes.map((n) => `/${name}: ${n}`),
  ];
  if (!granted && definition.allowedTools.length > 0)
    notes.push(
      `/${name}: this folder is not trusted, so the command's allowed-tools grant nothing`,
    );
  const hooks = turnHooks(name, definition, granted, notes);
  const submission = commandSubmission(name, args, expanded.text, {
    rules: compiled.rules,
    ...(hooks ? { hooks } : {}),
    // A Claude Code alias (`opus`, `haiku`) resolves as a subagent's does.
    ...(definition.model
      ? {
          model: resolveAgentModel(definition.model, sessionModels(host)),
        }
      : {}),
  });
  return { submission, notes };
}
