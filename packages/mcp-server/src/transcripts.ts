import type { Resource } from "@modelcontextprotocol/sdk/types.js";
import { badgeLabel, type Engine, readSessionHistory } from "@z-engine/engine";
import type { EngineEvent } from "@z-engine/protocol";

/** Where a server's transcripts come from: the engine's sessions and its data folder. */
export interface TranscriptSource {
  readonly engine: Engine;
  /** The data folder the engine's file store keeps sessions in. */
  readonly dataDir: string;
  /** The server's folder: its sessions are listed too. */
  readonly folder: string;
  /** The sessions this server ran. */
  readonly ran: ReadonlySet<string>;
}

/** The sessions a caller may read: those the server ran and those of its folder, newest first. */
async function visible(source: TranscriptSource) {
  const all = await source.engine.listSessions();
  return all.filter((s) => source.ran.has(s.id) || s.projectRoot === source.folder);
}

/** The session resources a server lists (`zeng://sessions/<id>`). Never rejects but for the store. */
export async function sessionResources(source: TranscriptSource): Promise<Resource[]> {
  return (await visible(source)).map((s) => ({
    uri: `zeng://sessions/${s.id}`,
    name: s.id,
    title: s.title ?? s.id,
    description: `${s.projectRoot ?? "no folder"} · ${s.turnCount} turns · last ${s.lastTurn ?? "none"}`,
    mimeType: "text/markdown",
  }));
}

function line(event: EngineEvent): string | undefined {
  switch (event.type) {
    case "turnStarted":
      return `## User\n\n${event.prompt}`;
    case "assistantFinished": {
      const text = event.message.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
      return text.length > 0 ? `## Assistant\n\n${text.join("")}` : undefined;
    }
    case "toolFinished":
      return `- ${event.toolName}: ${event.status}${event.writtenPaths.length > 0 ? ` (wrote ${event.writtenPaths.join(", ")})` : ""}`;
    case "turnFinished":
      return `_Turn ${event.outcome}. ${badgeLabel(event.badge)}: ${event.badge.reason}_`;
    default:
      return undefined;
  }
}

/**
 * A session's transcript as markdown: each prompt, each answer, the tool calls with their
 * status and written files, each turn's outcome and badge. Rejects (the SDK answers the read
 * with an error) for a session the caller may not read or that does not exist.
 */
export async function transcriptOf(source: TranscriptSource, sessionId: string): Promise<string> {
  const allowed = (await visible(source)).find((s) => s.id === sessionId);
  if (!allowed) throw new Error(`no session ${sessionId} of this server`);
  const history = await readSessionHistory(source.dataDir, sessionId);
  const lines = history.events.flatMap(({ event, agentId }) => {
    if (agentId !== undefined) return [];
    const text = line(event);
    return text === undefined ? [] : [text];
  });
  return [`# ${allowed.title ?? sessionId}`, ...lines].join("\n\n");
}
