import { join } from "node:path";
import { editProjectSettings, persistProjectRule } from "@z-engine/config";
import {
  type CompiledRule,
  compileRules,
  decide,
  parseCommand,
  type PermissionRules,
} from "@z-engine/policy";
import { effectiveRules } from "../batch/gate.js";
import type { CommandHost } from "./host.js";
import { memoryFiles } from "./memory-files.js";
import { rememberTarget } from "./remember.js";

const OUTPUT_LIMIT = 30_000;
const SHELL_TIMEOUT_MS = 120_000;
const LISTS = ["allow", "ask", "deny"] as const;
type List = (typeof LISTS)[number];

const fence = (text: string) => `\`\`\`\n${text.replace(/```/g, "'''")}\n\`\`\``;

/**
 * `/bash <command>` (the terminal's `!` mode): runs a command the user typed in the agent's
 * current folder, unsandboxed like the spec's `!` lines, and adds the command and its output
 * to the conversation (a reminder joining the next user message). The gate's deny rules
 * hold; an ask is answered by the user having typed it. Never the model's: no hook runs.
 */
export async function bashLine(host: CommandHost, args: string): Promise<string> {
  const command = args.trim();
  if (command === "") return "Usage: `/bash <command>` (or `!command` in the terminal)";
  const cwd = host.shellSession.cwd;
  const action = { kind: "command" as const, command: await parseCommand(command), cwd };
  const decision = decide(
    { toolName: "Bash", actions: [action] },
    host.mode,
    effectiveRules(host),
    {
      projectRoot: host.projectRoot,
      additionalDirectories: host.additionalDirectories,
      homeDir: host.homeDir,
      autoAllowReadOnlyBash: false,
      engineDirs: host.engineDirs,
    },
  );
  if (decision.type === "deny") return `Not run: ${decision.reason}`;
  const result = await host.shell.run({
    command,
    cwd,
    timeoutMs: SHELL_TIMEOUT_MS,
    maxOutputChars: OUTPUT_LIMIT,
    signal: host.commandSignal,
  });
  const status =
    result.error ?? (result.exitCode === 0 ? "" : `exit ${result.exitCode ?? "killed"}`);
  const output = result.output.trimEnd();
  host.reminders.add({
    key: `bash:${host.clock()}:${Math.random()}`,
    text: `The user ran a shell command themselves (in ${cwd}):\n<bash-input>${command}</bash-input>\n<bash-stdout>${output}</bash-stdout>${status ? `\n<bash-status>${status}</bash-status>` : ""}`,
  });
  return [`$ ${command}`, "", fence(output || "(no output)"), ...(status ? ["", status] : [])].join(
    "\n",
  );
}

function ruleLines(rules: PermissionRules): string[] {
  const lines: string[] = [];
  for (const list of LISTS) {
    for (const r of rules[list])
      lines.push(`| ${list} | \`${r.rule.text}\` | ${r.origin.source} |`);
  }
  return lines;
}

function listRules(host: CommandHost): string {
  const rows = [...ruleLines(host.sessionRules), ...ruleLines(host.config.rules)];
  return [
    `**Permissions** (mode: ${host.mode}${host.trusted ? "" : "; folder not trusted: its allow rules are withheld"})`,
    "",
    ...(rows.length === 0
      ? ["No rules."]
      : ["| list | rule | from |", "| --- | --- | --- |", ...rows]),
    "",
    "`/permissions allow|ask|deny <rule>` adds a rule (this session and .z-engine/settings.local.toml); `/permissions remove <rule>` takes one out.",
  ].join("\n");
}

function withRule(rules: PermissionRules, list: List, added: readonly CompiledRule[]) {
  return { ...rules, [list]: [...added, ...rules[list]] };
}

function withoutRule(rules: PermissionRules, text: string): PermissionRules {
  const keep = (l: readonly CompiledRule[]) => l.filter((r) => r.rule.text !== text);
  return { allow: keep(rules.allow), ask: keep(rules.ask), deny: keep(rules.deny) };
}

async function addRule(host: CommandHost, list: List, text: string): Promise<string> {
  const { rules, errors } = compileRules([text], {
    source: "settings.local.toml",
    root: host.projectRoot,
  });
  if (errors.length > 0 || rules.length === 0)
    return `Not added: \`${text}\` ${errors[0]?.error ?? "is not a rule"}.`;
  await persistProjectRule(host.projectRoot, list, text);
  host.state.replaceSessionRules(withRule(host.sessionRules, list, rules));
  const later =
    list === "allow" && !host.trusted
      ? " It applies now; saved, it applies in later sessions once this folder is trusted."
      : "";
  return `Added \`${text}\` to ${list} (saved to .z-engine/settings.local.toml).${later}`;
}

async function removeRule(host: CommandHost, text: string): Promise<string> {
  const all = [...ruleLines(host.sessionRules), ...ruleLines(host.config.rules)];
  if (!all.some((l) => l.includes(`\`${text}\``))) return `No rule \`${text}\` is in effect.`;
  let saved = false;
  await editProjectSettings(host.projectRoot, "local", (doc) => {
    const p = doc.permissions as Record<string, unknown> | undefined;
    for (const list of LISTS) {
      const current = p?.[list];
      if (!p || !Array.isArray(current) || !current.includes(text)) continue;
      p[list] = current.filter((r) => r !== text);
      saved = true;
    }
  });
  host.state.replaceSessionRules(withoutRule(host.sessionRules, text));
  const settings = host.state.settings;
  host.state.replaceSettings({
    ...settings,
    config: { ...settings.config, rules: withoutRule(settings.config.rules, text) },
  });
  return `Removed \`${text}\` for this session${saved ? " and from .z-engine/settings.local.toml" : " (it is not in .z-engine/settings.local.toml: edit the file that sets it to drop it for good)"}.`;
}

/** `/permissions [allow|ask|deny <rule> | remove <rule>]`: the rules in effect, and edits of them. */
export async function permissions(host: CommandHost, args: string): Promise<string> {
  const [verb = "", ...rest] = args.trim().split(/\s+/);
  const text = rest.join(" ").trim();
  if (verb === "") return listRules(host);
  if ((LISTS as readonly string[]).includes(verb) && text) return addRule(host, verb as List, text);
  if (verb === "remove" && text) return removeRule(host, text);
  return "Usage: `/permissions`, `/permissions allow|ask|deny <rule>`, `/permissions remove <rule>`";
}

/** `/agents`: the agent types the Agent tool can start. */
export function agents(host: CommandHost): Promise<string> {
  const list = host.ports.agents?.catalog() ?? [];
  if (list.length === 0) return Promise.resolve("No agents are available in this session.");
  const lines = list.map((a) => `- **${a.name}**: ${a.description}`);
  return Promise.resolve(
    [
      "**Agents**",
      "",
      ...lines,
      "",
      "Custom agents live in `.z-engine/agents/` and `.claude/agents/`.",
    ].join("\n"),
  );
}

/** `/config`: the settings in effect and the files they come from. */
export function config(host: CommandHost): Promise<string> {
  const s = host.config.settings;
  return Promise.resolve(
    [
      "**Settings in effect**",
      "",
      `- Model: ${host.model} (fast: ${host.config.fastModel}); effort ${host.effort ?? "default"}`,
      `- Permission mode: ${host.mode}`,
      `- Verification: ${s.verification.mode} (max ${s.verification.max_continuations} send-backs)`,
      `- Sandbox: ${s.shell.sandbox.enabled ? (host.sandbox.active ? "on" : "on, but not available") : "off"}`,
      `- Compaction at ${s.context.compact_at_percent}% of the window; turn budget ${host.config.maxTurns} rounds`,
      `- Workspace: ${host.trusted ? "trusted" : "not trusted (project hooks, MCP servers, allow rules are withheld)"}`,
      "",
      "Files (later ones win):",
      `- user: ${join(host.userConfigDir, "settings.toml")}`,
      `- project: ${join(host.projectRoot, ".z-engine", "settings.toml")}`,
      `- local: ${join(host.projectRoot, ".z-engine", "settings.local.toml")}`,
    ].join("\n"),
  );
}

/**
 * `/memory`: the instruction files there are, and the ones `/remember` writes that are not
 * created yet; all are re-read at the next turn (after an edit in an editor).
 */
export async function memory(host: CommandHost): Promise<string> {
  const { files } = await memoryFiles(host);
  const present = files
    .filter((f) => f.exists)
    .map((f) => `- ${f.kind}: ${f.path}${f.refused ? ` (not read: ${f.refused})` : ""}`);
  const targets = [
    ["user", await rememberTarget(host, true)],
    ["project", await rememberTarget(host, false)],
    ["local", join(host.projectRoot, "AGENTS.local.md")],
  ] as const;
  const missing = targets
    .filter(([, path]) => !files.some((f) => f.path === path && f.exists))
    .map(([kind, path]) => `- ${kind}: ${path} (not created yet)`);
  host.reloadInstructions();
  return ["**Instruction files** (re-read at the next turn)", "", ...present, ...missing].join(
    "\n",
  );
}
