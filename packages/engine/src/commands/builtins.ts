import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { persistAdditionalDirectory } from "@z-engine/config";
import { Effort, PermissionMode } from "@z-engine/protocol";
import { toolSpec } from "@z-engine/tools";
import { formatCost } from "../format/describe.js";
import { mainAgentRun } from "../run/main-agent.js";
import { compactionLines, compactionsOf } from "../history/compactions.js";
import { compactNow } from "../run/pressure.js";
import { cost } from "./cost.js";
import type { CommandHost } from "./host.js";
import { mapStatusLine } from "./map-line.js";
import { rememberNote } from "./remember.js";
import { suggestionCommand } from "./suggestion-command.js";
import { knownModels, modelList } from "./model-list.js";
import { agents, bashLine, config, memory, permissions } from "./session-builtins.js";

/** An engine built-in: its catalog entry and what it answers (markdown, never the model). */
export interface EngineBuiltin {
  readonly name: string;
  readonly description: string;
  readonly argumentHint?: string;
  run(host: CommandHost, args: string): Promise<string>;
}

const n = (value: number) => value.toLocaleString("en-US");

function status(host: CommandHost): Promise<string> {
  const servers = host.mcp.status();
  return Promise.resolve(
    [
      "**Session status**",
      "",
      `- Session: ${host.id}`,
      `- Project: ${host.projectRoot}${host.trusted ? "" : " (not trusted)"}`,
      `- Model: ${host.model}`,
      `- Mode: ${host.mode}`,
      `- Effort: ${host.effort ?? "default"}`,
      `- Turns: ${host.turnCount}${host.busy ? " (one running)" : ""}`,
      `- Cost: ${formatCost(host.totalUsage.costUsd)}`,
      `- MCP servers: ${servers.length === 0 ? "none" : servers.map((s) => `${s.name} (${s.state})`).join(", ")}`,
    ].join("\n"),
  );
}

async function context(host: CommandHost): Promise<string> {
  const e = host.estimator;
  const window = host.catalog.info(host.model).contextWindow;
  const system = host.system;
  const rows = system.map((s) => `| system: ${s.id} | ${n(e.estimateText(s.text))} |`);
  const tools = e.estimateRequest({ system: [], tools: host.tools.map(toolSpec), messages: [] });
  const messages = e.estimateMessages(host.workingSet());
  const total =
    e.estimateRequest({ system, tools: host.tools.map(toolSpec), messages: [] }) + messages;
  const map = host.repoMap?.status();
  const mapLine = map ? mapStatusLine(map, host.clock()) : "Repo map: off";
  const { compactions } = await compactionsOf(host.logPath).catch(() => ({ compactions: [] }));
  return [
    `**Context:** about ${n(total)} of ${n(window)} tokens (${((total / window) * 100).toFixed(1)}%)`,
    "",
    "| part | tokens |",
    "| --- | ---: |",
    ...rows,
    `| tools (${host.tools.length}) | ${n(tools)} |`,
    `| messages | ${n(messages)} |`,
    "",
    mapLine,
    ...(compactions.length > 0 ? ["", "Compactions:", ...compactionLines(compactions)] : []),
  ].join("\n");
}

/**
 * `/compact`: on request everything before the last message is summarised (the split still
 * never separates a tool call from its result); otherwise the exact reason nothing changed.
 */
async function compact(host: CommandHost): Promise<string> {
  if (host.busy) return "A turn is running: `/compact` waits for an idle session.";
  const before = host.workingSet().length;
  if (before < 2)
    return `Nothing was compacted: the conversation has ${before === 0 ? "no messages" : "one message"} yet.`;
  const run = mainAgentRun(host, host.commandSignal);
  const result = await compactNow(host, run, "manual", 0);
  if (result.done) return `Compacted: ${before} messages became ${host.workingSet().length}.`;
  if (result.stage === "nothing")
    return "Nothing was compacted: every point before the last message would separate a tool call from its result.";
  return `Nothing was compacted: ${result.reason}.`;
}

async function setting<T extends string>(
  args: string,
  what: "model" | "mode" | "effort",
  parse: (text: string) => T | undefined,
  apply: (value: T) => Promise<void>,
  current: string,
): Promise<string> {
  const wanted = args.trim();
  if (wanted === "") return `**${what[0]?.toUpperCase()}${what.slice(1)}:** ${current}`;
  const value = parse(wanted);
  if (value === undefined) return `Unknown ${what} "${wanted}".`;
  await apply(value);
  return `${what[0]?.toUpperCase()}${what.slice(1)} set to ${value}.`;
}

function model(host: CommandHost, args: string): Promise<string> {
  const { provider, known } = knownModels(host);
  if (args.trim() === "" || !known) {
    const list = known ? modelList(provider, known) : "";
    return setting(
      args,
      "model",
      (t) => t,
      (v) => host.state.setModel(v),
      host.model,
    ).then((answer) => answer + list);
  }
  const wanted = args.trim();
  if (
    known.includes(wanted) ||
    known.includes(wanted.replace(/-\d{8}$/, "")) ||
    wanted === host.model
  )
    return setting(
      args,
      "model",
      (t) => t,
      (v) => host.state.setModel(v),
      host.model,
    );
  return host.journal
    .notice(
      "warning",
      "model.unknown",
      `Unknown model "${wanted}" for ${provider}: the model stays ${host.model}. Add it to models.json if your provider serves it.`,
    )
    .then(() => `**Model:** ${host.model}${modelList(provider, known)}`);
}

function mode(host: CommandHost, args: string): Promise<string> {
  const parse = (t: string) => {
    const r = PermissionMode.safeParse(t);
    return r.success ? r.data : undefined;
  };
  return setting(args, "mode", parse, (m) => host.setMode(m), host.mode);
}

function effort(host: CommandHost, args: string): Promise<string> {
  const parse = (t: string) => {
    const r = Effort.safeParse(t);
    return r.success ? r.data : undefined;
  };
  const apply = (value: Effort) => host.state.setEffort(value);
  return setting(args, "effort", parse, apply, host.effort ?? "default");
}

function mcp(host: CommandHost): Promise<string> {
  const servers = host.mcp.status();
  if (servers.length === 0) return Promise.resolve("No MCP servers are configured.");
  const lines = servers.map((s) => {
    if (s.state === "needsLogin")
      return `- **${s.name}**: needs login (run \`zeng mcp login ${s.name}\`, or the login action of /mcp)`;
    const tools = s.state === "ready" ? ` (${s.tools} tools)` : "";
    const detail = "error" in s && s.error ? `: ${s.error}` : "";
    return `- **${s.name}**: ${s.state}${tools}${detail}`;
  });
  return Promise.resolve(["**MCP servers**", "", ...lines].join("\n"));
}

function todos(host: CommandHost): Promise<string> {
  if (host.todos.length === 0) return Promise.resolve("No todos.");
  const mark = { pending: "[ ]", in_progress: "[~]", completed: "[x]" } as const;
  const lines = host.todos.map(
    (t) => `- ${mark[t.status as keyof typeof mark] ?? "[ ]"} ${t.content}`,
  );
  return Promise.resolve(["**Todos**", "", ...lines].join("\n"));
}

async function addDir(host: CommandHost, args: string): Promise<string> {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const save = words.includes("--save");
  const folder = words.find((w) => w !== "--save");
  if (!folder) return "Usage: `/add-dir <folder> [--save]`";
  const full = resolve(
    host.projectRoot,
    folder.startsWith("~/") ? `${host.homeDir}/${folder.slice(2)}` : folder,
  );
  const info = await stat(full).catch(() => null);
  if (!info?.isDirectory()) return `${full} is not a folder.`;
  if (!host.additionalDirectories.includes(full)) {
    const settings = host.state.settings;
    host.state.replaceSettings({
      ...settings,
      additionalDirectories: [...settings.additionalDirectories, full],
    });
  }
  if (!save) return `Added ${full} for this session.`;
  await persistAdditionalDirectory(host.projectRoot, full);
  return `Added ${full} (saved to .z-engine/settings.local.toml).`;
}

function doctor(host: CommandHost): Promise<string> {
  const checks = host.checks();
  const servers = host.mcp.status();
  const failed = servers.filter((s) => s.state === "failed");
  return Promise.resolve(
    [
      "**Doctor**",
      "",
      `- Model: ${host.model} (fast: ${host.config.fastModel})`,
      `- Workspace: ${host.trusted ? "trusted" : "not trusted: project hooks, MCP servers and allow rules are withheld"}`,
      `- Shell: ${host.config.settings.shell.program ?? "default"}; sandbox ${sandboxLine(host.sandbox)}`,
      `- Settings rule errors: ${host.config.ruleErrors.length}`,
      `- Checks found: ${checks.length}`,
      `- MCP servers: ${servers.length} configured, ${failed.length} failed`,
    ].join("\n"),
  );
}

/** The sandbox's state for /doctor: active, off, or on in the settings but unable to run. */
function sandboxLine(sandbox: CommandHost["sandbox"]): string {
  if (sandbox.active) return "active";
  if (sandbox.unavailable === undefined) return "off";
  return `on in the settings but cannot run (${sandbox.unavailable}): commands run unconfined and each needs approval (bypass and auto-allow do not apply; headless runs deny them)`;
}

/** The engine built-ins, in catalog order. */
export const ENGINE_BUILTINS: readonly EngineBuiltin[] = [
  {
    name: "compact",
    description: "Summarise older history now",
    run: compact,
  },
  { name: "context", description: "Show what the context window holds", run: context },
  { name: "cost", description: "Show the session's token use and cost", run: cost },
  { name: "status", description: "Show the session's model, mode and state", run: status },
  {
    name: "remember",
    description: "Add a note to the project's instructions file",
    argumentHint: "<note>",
    run: rememberNote,
  },
  {
    name: "suggestion",
    description: "List the decision layer's suggestions, or accept or dismiss one",
    argumentHint: "[accept|dismiss <id>]",
    run: suggestionCommand,
  },
  {
    name: "model",
    description: "Show the provider's models, or set the model",
    argumentHint: "[model]",
    run: model,
  },
  {
    name: "mode",
    description: "Show or set the permission mode",
    argumentHint: "[ask|acceptEdits|plan|bypass]",
    run: mode,
  },
  {
    name: "effort",
    description: "Show or set the reasoning effort",
    argumentHint: "[level]",
    run: effort,
  },
  { name: "mcp", description: "Show the MCP servers and their states", run: mcp },
  { name: "todos", description: "Show the todo list", run: todos },
  { name: "doctor", description: "Check the session's set-up", run: doctor },
  {
    name: "add-dir",
    description: "Let the agent work in another folder",
    argumentHint: "<folder> [--save]",
    run: addDir,
  },
  {
    name: "bash",
    description:
      "Run a shell command; it and its output join the conversation (`!` in the terminal)",
    argumentHint: "<command>",
    run: bashLine,
  },
  {
    name: "permissions",
    description: "Show the permission rules; add or remove one",
    argumentHint: "[allow|ask|deny <rule> | remove <rule>]",
    run: permissions,
  },
  { name: "agents", description: "List the agents the Agent tool can start", run: agents },
  { name: "config", description: "Show the settings in effect and their files", run: config },
  { name: "memory", description: "Show the instruction files and re-read them", run: memory },
];
