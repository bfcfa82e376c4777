// The start screen: a new session in the server's folder, a recent one, a folder picked from
// the server's listing, or a path typed in; and the recent sessions.
import { useState } from "react";
import { api, type ProjectEntry, type ServerInfo } from "./api.js";
import { FolderPicker } from "./folder-picker.js";
import { baseName, formatCost, OUTCOME_LABEL, relativeTime } from "./format.js";

interface Props {
  readonly info: ServerInfo | undefined;
  readonly projects: ProjectEntry[] | undefined;
  readonly open: (id: string) => void;
}

export function Home({ info, projects, open }: Props) {
  const [error, setError] = useState<string>();
  const [picking, setPicking] = useState(false);
  const [folder, setFolder] = useState("");
  const [starting, setStarting] = useState(false);
  const start = (path: string) => {
    setStarting(true);
    setError(undefined);
    api.create(path).then(
      (r) => open(r.id),
      (e: Error) => {
        setStarting(false);
        setError(e.message);
      },
    );
  };
  const recent = (projects ?? []).filter((p) => p.exists && p.root !== info?.cwd).slice(0, 6);
  const sessions = (projects ?? [])
    .flatMap((p) => p.sessions)
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, 12);
  return (
    <main className="home" data-testid="home">
      <h1>Start a session</h1>
      <div className="start-options">
        {info ? (
          <button
            type="button"
            className="start-card primary"
            disabled={starting}
            onClick={() => start(info.cwd)}
          >
            <strong>New session in {baseName(info.cwd)}</strong>
            <span className="muted">{info.cwd}</span>
          </button>
        ) : null}
        {recent.map((p) => (
          <button
            key={p.root}
            type="button"
            className="start-card"
            disabled={starting}
            onClick={() => start(p.root)}
          >
            <strong>New session in {p.name}</strong>
            <span className="muted">{p.root}</span>
          </button>
        ))}
        <button type="button" className="start-card" onClick={() => setPicking(true)}>
          <strong>Choose a folder…</strong>
          <span className="muted">Browse the folders on this machine</span>
        </button>
      </div>
      <form
        className="typed-folder"
        onSubmit={(e) => {
          e.preventDefault();
          start(folder);
        }}
      >
        <label>
          New session in folder{" "}
          <input
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            placeholder="~/code/project or /path/to/project"
            required
          />
        </label>
        <button type="submit" disabled={starting}>
          Start
        </button>
      </form>
      {error ? (
        <p role="alert" className="problem" data-testid="start-error">
          {error}
        </p>
      ) : null}
      <h2>Recent sessions</h2>
      {projects === undefined ? <p>Loading…</p> : null}
      {projects?.length === 0 ? <p className="muted">No sessions yet.</p> : null}
      <ul className="sessions" data-testid="sessions">
        {sessions.map((s) => (
          <li key={s.id}>
            <button type="button" onClick={() => open(s.id)}>
              <strong>{s.title ?? "Untitled"}</strong>
              <span className="muted">
                {s.projectRoot ? baseName(s.projectRoot) : "(no folder)"} · {s.turnCount} turn
                {s.turnCount === 1 ? "" : "s"} · {formatCost(s.costUsd)} ·{" "}
                {relativeTime(s.updatedAt)}
                {s.lastTurn ? ` · ${OUTCOME_LABEL[s.lastTurn] ?? s.lastTurn}` : ""}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {picking ? (
        <FolderPicker
          start={info?.cwd ?? info?.home ?? "/"}
          close={() => setPicking(false)}
          choose={(path) => {
            setPicking(false);
            start(path);
          }}
        />
      ) : null}
    </main>
  );
}
