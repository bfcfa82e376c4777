// The Context screen's MCP servers: state, transport, tools, a login for a server that needs
// one and a logout for one logged in.
import type { McpServerStatus } from "@z-engine/protocol";
import { useState } from "react";
import { api } from "./api.js";

type LoginPhase =
  | { readonly phase: "idle" }
  | { readonly phase: "starting" }
  | { readonly phase: "waiting"; readonly url: string }
  | { readonly phase: "done"; readonly tools: number }
  | { readonly phase: "failed"; readonly error: string }
  | { readonly phase: "loggingOut" }
  | { readonly phase: "loggedOut" };

/** Starts the login, opens its page, then waits for the callback the browser brings back. */
async function runLogin(
  sessionId: string,
  server: string,
  set: (phase: LoginPhase) => void,
): Promise<void> {
  set({ phase: "starting" });
  try {
    const started = await api.mcpLogin(sessionId, server);
    if (!("url" in started)) return set({ phase: "done", tools: started.tools });
    set({ phase: "waiting", url: started.url });
    window.open(started.url, "_blank", "noopener,noreferrer");
    const outcome = await api.mcpLoginOutcome(sessionId, server);
    set(
      outcome.ok
        ? { phase: "done", tools: outcome.tools }
        : { phase: "failed", error: outcome.error },
    );
  } catch (error) {
    set({ phase: "failed", error: error instanceof Error ? error.message : String(error) });
  }
}

/** Forgets the server's tokens; the server restarts and its row then offers Log in again. */
async function runLogout(
  sessionId: string,
  server: string,
  set: (phase: LoginPhase) => void,
): Promise<void> {
  set({ phase: "loggingOut" });
  try {
    await api.mcpLogout(sessionId, server);
    set({ phase: "loggedOut" });
  } catch (error) {
    set({ phase: "failed", error: error instanceof Error ? error.message : String(error) });
  }
}

function LoginAction(props: { sessionId: string; server: McpServerStatus; loggedIn: boolean }) {
  const { sessionId, server } = props;
  const [login, setLogin] = useState<LoginPhase>({ phase: "idle" });
  const busy =
    login.phase === "starting" || login.phase === "waiting" || login.phase === "loggingOut";
  return (
    <div className="mcp-login" data-testid="mcp-login">
      {props.loggedIn && server.state !== "needsLogin" && !busy ? (
        <button
          type="button"
          className="quiet"
          aria-label={`Log out of ${server.name}`}
          onClick={() => void runLogout(sessionId, server.name, setLogin)}
        >
          Log out
        </button>
      ) : null}
      {server.state === "needsLogin" && !busy ? (
        <button
          type="button"
          aria-label={`Log in to ${server.name}`}
          onClick={() => void runLogin(sessionId, server.name, setLogin)}
        >
          Log in
        </button>
      ) : null}
      {login.phase === "starting" ? <span className="muted">Starting the login…</span> : null}
      {login.phase === "waiting" ? (
        <span className="muted">
          Waiting for the login in your browser ·{" "}
          <a href={login.url} target="_blank" rel="noopener noreferrer">
            Open the login page
          </a>
        </span>
      ) : null}
      {login.phase === "loggingOut" ? <span className="muted">Logging out…</span> : null}
      {login.phase === "loggedOut" ? <span>Logged out of {server.name}.</span> : null}
      {login.phase === "done" ? (
        <span>
          Logged in to {server.name} ({login.tools} tools).
        </span>
      ) : null}
      {login.phase === "failed" ? <div role="alert">{login.error}</div> : null}
    </div>
  );
}

/** The servers of the context report, each with its state; a login where one is needed, a logout where one is stored. */
export function McpServerList({
  sessionId,
  servers,
  loggedIn,
}: {
  sessionId: string;
  servers: readonly McpServerStatus[];
  /** The servers with a stored login (the report's `mcpLogins`). */
  loggedIn: readonly string[];
}) {
  return (
    <ul data-testid="mcp-servers">
      {servers.map((m) => (
        <li key={m.name} data-state={m.state}>
          <strong>{m.name}</strong> <span className={`mcp-state state-${m.state}`}>{m.state}</span>{" "}
          · {m.transport} · {m.tools} tools
          {m.error ? <div className="muted">{m.error}</div> : null}
          <LoginAction sessionId={sessionId} server={m} loggedIn={loggedIn.includes(m.name)} />
        </li>
      ))}
    </ul>
  );
}
