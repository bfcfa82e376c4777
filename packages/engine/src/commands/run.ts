import type { TurnId } from "@z-engine/protocol";
import { awaitPromptServer, sessionMcp } from "../mcp/prompts.js";
import type { Submission } from "../run/turn.js";
import type { CommandHost } from "./host.js";
import { buildCatalog, type Catalog, closeMatches } from "./catalog.js";
import type { DefinitionRoots } from "../definitions/discover.js";
import { commandSubmission, preparePromptTurn } from "./prompt-turn.js";

/** What running a command did. */
export type CommandRun =
  | { readonly type: "output"; readonly name: string; readonly markdown: string }
  | { readonly type: "turn"; readonly name: string; readonly turnId: TurnId }
  | { readonly type: "notice"; readonly name: string; readonly message: string };

/** The session as the command runner uses it. */
export interface CommandSession extends CommandHost {
  /** Queues a turn (like a submit). */
  enqueue(turnId: TurnId, submission: Submission): void;
}

/** The folders a session's commands come from. */
export function rootsOf(host: CommandHost): DefinitionRoots {
  return {
    projectRoot: host.projectRoot,
    userConfigDir: host.userConfigDir,
    homeDir: host.homeDir,
    files: { project: host.doors.project, user: host.doors.user },
  };
}

/** The session's catalog now (custom files are read on each call, so new ones show up). */
export function sessionCatalog(host: CommandHost): Promise<Catalog> {
  const mcp = sessionMcp(host.mcp);
  return buildCatalog(rootsOf(host), () => mcp.prompts(host.commandSignal));
}

const SLASH = /^\/([A-Za-z0-9_][\w.:-]*)(?:\s+([\s\S]*))?$/;

/**
 * A prompt that runs a command: `/name` or `/name args`, where the name has no `/` (so
 * `/usr/bin is slow` stays a prompt). Undefined for any other text.
 */
export function parseSlashPrompt(text: string): { name: string; args: string } | undefined {
  const m = SLASH.exec(text.trim());
  return m ? { name: m[1] as string, args: (m[2] ?? "").trim() } : undefined;
}

async function notice(
  host: CommandHost,
  name: string,
  code: string,
  message: string,
): Promise<CommandRun> {
  await host.journal.notice("warning", code, message);
  return { type: "notice", name, message };
}

/**
 * Runs `/name args`: an engine built-in answers with a `commandOutput` event (never the
 * model); a prompt command (custom, built-in or MCP) queues a turn under `turnId`; an unknown
 * name gets a `command.unknown` notice naming close matches. Files that could not be used
 * are `command.problem` notices. Rejects only when the log cannot be written.
 */
export async function runCommand(
  session: CommandSession,
  name: string,
  args: string,
  turnId: TurnId,
): Promise<CommandRun> {
  let catalog = await sessionCatalog(session);
  for (const p of catalog.problems) await session.journal.notice("warning", "command.problem", p);
  let entry = catalog.entries.find((e) => e.name === name);
  if (!entry && name.startsWith("mcp__")) {
    // An MCP prompt of a server still starting (`zeng -p "/mcp__s__p"`): wait for it, then look again.
    const why = await awaitPromptServer(session.mcp, name);
    if (why) return notice(session, name, "command.mcpPrompt", `/${name} cannot run: ${why}.`);
    catalog = await sessionCatalog(session);
    entry = catalog.entries.find((e) => e.name === name);
  }
  if (!entry) {
    const close = closeMatches(
      name,
      catalog.entries.map((e) => e.name),
    );
    const hint = close.length > 0 ? ` Did you mean ${close.map((c) => `/${c}`).join(", ")}?` : "";
    return notice(session, name, "command.unknown", `Unknown command /${name}.${hint}`);
  }
  if (entry.kind === "engine") {
    const markdown = await entry.builtin.run(session, args);
    session.journal.emit({ type: "commandOutput", name, markdown });
    return { type: "output", name, markdown };
  }
  let submission: Submission;
  if (entry.kind === "mcp") {
    const fetched = await sessionMcp(session.mcp).getPrompt(name, args, session.commandSignal);
    if (!fetched.ok) return notice(session, name, "command.mcpPrompt", fetched.error);
    const body = fetched.prompt.messages
      .map((m) => (m.role === "assistant" ? `[assistant]\n${m.text}` : m.text))
      .join("\n\n");
    submission = commandSubmission(name, args, body);
  } else {
    const prepared = await preparePromptTurn(
      session,
      name,
      args,
      entry.definition,
      session.commandSignal,
    );
    for (const n of prepared.notes) await session.journal.notice("warning", "command.expand", n);
    submission = prepared.submission;
  }
  session.enqueue(turnId, submission);
  return { type: "turn", name, turnId };
}
