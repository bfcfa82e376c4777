// The page: the session list, or one session (its id in the URL, so a reload comes back to it).
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { api, type SessionEntry } from "./api.js";
import { SessionView } from "./session-view.js";

function sessionInUrl(): string | undefined {
  return new URLSearchParams(location.search).get("session") ?? undefined;
}

function go(id: string | undefined): void {
  const params = new URLSearchParams(location.search);
  if (id) params.set("session", id);
  else params.delete("session");
  history.pushState(null, "", `/?${params.toString()}`);
}

// The list is asked for before React first renders (start-up); later visits ask again.
let firstList: Promise<SessionEntry[]> | undefined = sessionInUrl() ? undefined : api.sessions();

function SessionList({ onOpen }: { onOpen: (id: string) => void }) {
  const [sessions, setSessions] = useState<SessionEntry[]>();
  const [folder, setFolder] = useState("");
  const [error, setError] = useState<string>();
  useEffect(() => {
    const list = firstList ?? api.sessions();
    firstList = undefined;
    list.then(setSessions, (e: Error) => setError(e.message));
  }, []);
  return (
    <main className="list">
      <h1>Z Engine</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          api.create(folder.trim()).then(
            (r) => onOpen(r.id),
            (err: Error) => setError(err.message),
          );
        }}
      >
        <label>
          New session in folder{" "}
          <input
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            placeholder="/path/to/project"
            required
          />
        </label>
        <button type="submit">Start</button>
      </form>
      {error ? <p role="alert">{error}</p> : null}
      <h2>Sessions</h2>
      {sessions === undefined ? <p>Loading…</p> : null}
      {sessions?.length === 0 ? <p className="muted">No sessions yet.</p> : null}
      <ul className="sessions" data-testid="sessions">
        {sessions?.map((s) => (
          <li key={s.id}>
            <button type="button" onClick={() => onOpen(s.id)}>
              <strong>{s.title ?? "Untitled"}</strong>
              <span className="muted">
                {s.projectRoot ?? "(no folder)"} · {s.turnCount} turns · ${s.costUsd.toFixed(4)} ·{" "}
                {new Date(s.updatedAt).toLocaleString()}
                {s.lastTurn ? ` · last turn ${s.lastTurn}` : ""}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </main>
  );
}

function App() {
  const [id, setId] = useState(sessionInUrl());
  useEffect(() => {
    const onPop = () => setId(sessionInUrl());
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);
  const open = (next: string | undefined) => {
    go(next);
    setId(next);
  };
  return id ? (
    <SessionView key={id} id={id} onBack={() => open(undefined)} />
  ) : (
    <SessionList onOpen={open} />
  );
}

const root = document.getElementById("root");
if (root) createRoot(root).render(<App />);
