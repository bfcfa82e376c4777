// The sidebar: new session, Inbox, Settings, and the recent project folders with their
// sessions (title, last outcome, cost, time). On narrow screens it is a drawer.
import type { ProjectEntry } from "./api.js";
import { Icon } from "./icons.js";
import { formatCost, OUTCOME_LABEL, relativeTime } from "./format.js";

export type Page = "home" | "session" | "inbox" | "settings";

interface Props {
  readonly projects: ProjectEntry[] | undefined;
  readonly inboxCount: number;
  readonly current: { page: Page; session?: string | undefined };
  readonly go: (page: Page, session?: string) => void;
  readonly newIn: (folder: string) => void;
  readonly open: boolean;
  readonly close: () => void;
}

const OUTCOME_MARK: Record<string, string> = {
  completed: "✓",
  failed: "✕",
  cancelled: "■",
  interrupted: "‖",
  budgetExhausted: "$",
};

export function Sidebar(props: Props) {
  const { projects, current, go } = props;
  return (
    <>
      {props.open ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the drawer closes it; a link in it does too
        <div className="scrim" role="presentation" onClick={props.close} />
      ) : null}
      <nav className={`sidebar${props.open ? " open" : ""}`} aria-label="Projects and sessions">
        <div className="brand">
          <span className="logo" aria-hidden="true">
            Z
          </span>{" "}
          Z Engine
        </div>
        <button
          type="button"
          className="nav-item primary"
          onClick={() => go("home")}
          aria-current={current.page === "home" ? "page" : undefined}
        >
          <Icon name="plus" /> New session
        </button>
        <button
          type="button"
          className="nav-item"
          onClick={() => go("inbox")}
          aria-current={current.page === "inbox" ? "page" : undefined}
          data-testid="nav-inbox"
        >
          Inbox{" "}
          {props.inboxCount > 0 ? (
            <span className="count" data-testid="inbox-count">
              {props.inboxCount}
            </span>
          ) : null}
        </button>
        <button
          type="button"
          className="nav-item"
          onClick={() => go("settings", current.session)}
          aria-current={current.page === "settings" ? "page" : undefined}
        >
          Settings
        </button>
        <div className="projects" data-testid="projects">
          {projects === undefined ? <p className="muted">Loading…</p> : null}
          {projects?.map((p) => (
            <section key={p.root} className="project" aria-label={`Project ${p.name}`}>
              <div className="project-head" title={p.root}>
                <span className="project-name">{p.name}</span>
                {p.exists ? (
                  <button
                    type="button"
                    className="icon small"
                    aria-label={`New session in ${p.name}`}
                    onClick={() => props.newIn(p.root)}
                  >
                    <Icon name="plus" />
                  </button>
                ) : (
                  <span className="muted small">gone</span>
                )}
              </div>
              <ul>
                {p.sessions.map((s) => (
                  <li key={s.id}>
                    <button
                      type="button"
                      className="session-item"
                      aria-current={
                        current.session === s.id && current.page === "session" ? "page" : undefined
                      }
                      onClick={() => go("session", s.id)}
                      data-testid="sidebar-session"
                    >
                      <span className="session-title">
                        {s.lastTurn ? (
                          <span
                            className={`outcome outcome-${s.lastTurn}`}
                            title={OUTCOME_LABEL[s.lastTurn] ?? s.lastTurn}
                          >
                            {OUTCOME_MARK[s.lastTurn] ?? "·"}
                          </span>
                        ) : null}{" "}
                        {s.title ?? "Untitled"}
                      </span>
                      <span className="session-meta muted">
                        {formatCost(s.costUsd)} · {relativeTime(s.updatedAt)}
                        {s.lastTurn ? ` · ${OUTCOME_LABEL[s.lastTurn] ?? s.lastTurn}` : ""}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </nav>
    </>
  );
}
