// Talking to the server: the token travels in a header (fetch) or the query (EventSource).
import type { EngineCommand } from "@z-engine/protocol";
import type { StreamItem } from "./state.js";

const params = new URLSearchParams(location.search);
export const TOKEN = params.get("token") ?? "";

export interface SessionEntry {
  id: string;
  title: string | null;
  projectRoot: string | null;
  updatedAt: number;
  turnCount: number;
  costUsd: number;
  lastTurn: string | null;
  open: boolean;
}

/** An entry of the engine's command catalog (`SessionHandle.commands()`). */
export interface SlashCommand {
  name: string;
  kind: "engine" | "custom" | "prompt" | "mcp";
  description: string;
  argumentHint?: string;
  scope?: "project" | "user";
}

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

export const api = {
  sessions: () => call<SessionEntry[]>("GET", "/api/sessions"),
  create: (folder: string) => call<{ id: string }>("POST", "/api/sessions", { folder }),
  send: (id: string, command: EngineCommand) =>
    call<{ turnId: string | null }>("POST", `/api/sessions/${id}/commands`, command),
  slash: (id: string) => call<SlashCommand[]>("GET", `/api/sessions/${id}/slash`),
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
  const url = `/api/sessions/${id}/events?token=${encodeURIComponent(TOKEN)}&after=${after}`;
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
