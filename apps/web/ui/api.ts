// Talking to the server: the token travels in a header (fetch) or the query (EventSource).
import type {
  AgentChangesOutcome,
  ContextReport,
  ModelChoice,
  PendingAgentChanges,
  RevertOutcome,
  RevertRequest,
  RuleEdit,
  RuleEditOutcome,
  SessionAgentsReport,
  SessionChanges,
  SessionStatus,
  SettingsReport,
  SlashCommandInfo,
  StopAgentOutcome,
  TrustReport,
} from "@z-engine/engine";
import type { Badge, EngineCommand, EventEnvelope, JobInfo } from "@z-engine/protocol";
import type { InboxItem } from "../src/server/inbox.js";
import type { McpLoginOutcome, McpLoginStart, McpLogoutOutcome } from "../src/server/mcp-login.js";
import type { ProjectEntry } from "../src/server/app-routes.js";
import type { SessionEntry, StreamItem } from "../src/server/session-hub.js";

export type { ProjectEntry, SessionEntry };

export type { InboxItem };

const params = new URLSearchParams(location.search);
export const TOKEN = params.get("token") ?? "";

/** The server's folder, the home folder, and a warning every screen shows (no API key). */
export interface ServerInfo {
  cwd: string;
  home: string;
  warning?: string;
}

export interface FolderListing {
  path: string;
  parent: string | null;
  folders: { name: string; path: string }[];
  more: number;
}

export type SlashCommand = SlashCommandInfo;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { "x-zeng-token": TOKEN, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const value = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(value.error ?? `HTTP ${response.status}`);
  return value;
}

const s = (id: string, what: string) => `/api/sessions/${encodeURIComponent(id)}/${what}`;

export const api = {
  info: () => call<ServerInfo>("GET", "/api/info"),
  sessions: () => call<SessionEntry[]>("GET", "/api/sessions"),
  projects: () => call<ProjectEntry[]>("GET", "/api/projects"),
  folders: (path?: string) =>
    call<FolderListing>("GET", `/api/folders${path ? `?path=${encodeURIComponent(path)}` : ""}`),
  create: (folder: string) => call<{ id: string }>("POST", "/api/sessions", { folder }),
  inbox: () => call<InboxItem[]>("GET", "/api/inbox"),
  send: (id: string, command: EngineCommand) =>
    call<{ turnId: string | null }>("POST", s(id, "commands"), command),
  slash: (id: string) => call<SlashCommand[]>("GET", s(id, "slash")),
  status: (id: string) => call<SessionStatus>("GET", s(id, "status")),
  badge: (id: string, filesChanged: boolean) =>
    call<Badge>("GET", s(id, `badge?changed=${filesChanged ? 1 : 0}`)),
  changes: (id: string, checkpointId?: string, until?: string) => {
    const q = new URLSearchParams({
      ...(checkpointId ? { checkpoint: checkpointId } : {}),
      ...(until ? { until } : {}),
    });
    return call<SessionChanges>("GET", s(id, `changes?${q.toString()}`));
  },
  revert: (id: string, request: RevertRequest) =>
    call<RevertOutcome>("POST", s(id, "revert"), request),
  worktrees: (id: string) => call<PendingAgentChanges[]>("GET", s(id, "worktrees")),
  resolveWorktree: (id: string, agentId: string, apply: boolean) =>
    call<AgentChangesOutcome>("POST", s(id, `worktrees/${encodeURIComponent(agentId)}`), { apply }),
  agents: (id: string) => call<SessionAgentsReport>("GET", s(id, "agents")),
  agentHistory: (id: string, agentId: string) =>
    call<{ events: EventEnvelope[] }>("GET", s(id, `agents/${encodeURIComponent(agentId)}`)),
  /** Stops a running subagent (by its id or its Agent call's); resolves once it ended. */
  stopAgent: (id: string, target: { agentId: string } | { toolCallId: string }) =>
    call<StopAgentOutcome>("POST", s(id, "agents/stop"), target),
  job: (id: string, jobId: string) =>
    call<{ job: JobInfo; output: string }>("GET", s(id, `jobs/${encodeURIComponent(jobId)}`)),
  context: (id: string) => call<ContextReport>("GET", s(id, "context")),
  settings: (id: string) => call<SettingsReport>("GET", s(id, "settings")),
  editRule: (id: string, edit: RuleEdit) => call<RuleEditOutcome>("POST", s(id, "rules"), edit),
  trust: (id: string) => call<TrustReport>("GET", s(id, "trust")),
  /** Trusts the session's folder; resolves once the engine applied it. */
  trustFolder: (id: string) => call<{ message: string | null }>("POST", s(id, "trust"), {}),
  models: (id: string) => call<ModelChoice[]>("GET", s(id, "models")),
  /** Starts an MCP server's login: the authorization page to open, or done already. */
  mcpLogin: (id: string, server: string) =>
    call<McpLoginStart>("POST", s(id, "mcp/login"), { server }),
  /** Forgets the server's stored login; the server restarts and needs a login again. */
  mcpLogout: (id: string, server: string) =>
    call<McpLogoutOutcome>("POST", s(id, "mcp/logout"), { server }),
  /** Waits for how the server's login ended. */
  mcpLoginOutcome: (id: string, server: string) =>
    call<McpLoginOutcome>("GET", s(id, `mcp/login?server=${encodeURIComponent(server)}`)),
};

/**
 * Follows a session's stream from `after` on. EventSource reconnects by itself and sends the
 * last `id:` it saw (the cursor), so the server resumes right after it.
 */
export function follow(
  id: string,
  after: number,
  onItem: (item: StreamItem) => void,
  onState: (connected: boolean, error?: string) => void,
): () => void {
  const url = `${s(id, "events")}?token=${encodeURIComponent(TOKEN)}&after=${after}`;
  const source = new EventSource(url);
  source.onopen = () => onState(true);
  source.onerror = () => {
    // A refused stream (e.g. the session is open in another process) is not retried.
    if (source.readyState === EventSource.CLOSED) {
      onState(false, "The session could not be opened here (is it open in another process?).");
    } else onState(false);
  };
  source.onmessage = (message) => onItem(JSON.parse(message.data as string) as StreamItem);
  return () => source.close();
}

/** Follows the changes every page sees (inbox, session list); calls `onChange` with each. */
export function followHub(onChange: (type: "inbox" | "sessions") => void): () => void {
  const source = new EventSource(`/api/events?token=${encodeURIComponent(TOKEN)}`);
  source.onmessage = (message) => {
    const change = JSON.parse(message.data as string) as { type: "inbox" | "sessions" };
    onChange(change.type);
  };
  // Reconnected after a drop: what changed meanwhile is read again.
  source.onopen = () => {
    onChange("inbox");
    onChange("sessions");
  };
  return () => source.close();
}
