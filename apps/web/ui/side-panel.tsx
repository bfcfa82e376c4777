// The side panel: the badge with its reason and check records, todos, jobs, checkpoints and
// cost per agent.
import type { EngineCommand } from "@z-engine/protocol";
import { BADGE_LABEL, formatUsage, TodoList } from "./rows.js";
import type { SessionView } from "./state.js";

export function SidePanel({ view, send }: { view: SessionView; send: (c: EngineCommand) => void }) {
  return (
    <aside className="side" aria-label="Session details">
      <section aria-label="Verification" data-testid="badge-panel">
        <h2>Verification</h2>
        {view.badge ? (
          <>
            <span className={`badge badge-${view.badge.status}`} data-testid="badge">
              {BADGE_LABEL[view.badge.status]}
            </span>
            <p>{view.badge.reason}</p>
          </>
        ) : (
          <p className="muted">No turn yet.</p>
        )}
        {view.checks.length > 0 ? (
          <details>
            <summary>Check records ({view.checks.length})</summary>
            <ul className="checks">
              {view.checks.map((c) => (
                <li key={c.runId}>
                  <strong>{c.checkId}</strong> {c.passed ? "passed" : "failed"} ·{" "}
                  <code>{c.command}</code> · {(c.durationMs / 1000).toFixed(1)} s
                  {c.counts ? ` · ${c.counts.passed} passed, ${c.counts.failed} failed` : ""}
                  <pre className="output">{c.outputTail}</pre>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>
      {view.todos.length > 0 ? (
        <section aria-label="Todos">
          <h2>Todos</h2>
          <TodoList todos={view.todos} />
        </section>
      ) : null}
      <section aria-label="Jobs" data-testid="jobs">
        <h2>Jobs</h2>
        {view.jobs.length === 0 ? <p className="muted">None.</p> : null}
        <ul>
          {view.jobs.map((j) => (
            <li key={j.id}>
              {j.kind} · {j.description} · <strong>{j.status}</strong>
              {j.exitCode != null ? ` (exit ${j.exitCode})` : ""}
              {j.status === "running" ? (
                <button
                  type="button"
                  className="small"
                  onClick={() => send({ type: "killJob", jobId: j.id })}
                >
                  Stop
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Checkpoints" data-testid="checkpoints">
        <h2>Checkpoints</h2>
        {view.checkpoints.length === 0 ? <p className="muted">None yet.</p> : null}
        <ul>
          {view.checkpoints.map((c) => (
            <li key={c.id}>
              {new Date(c.createdAt).toLocaleTimeString()} · {c.files} files
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Cost">
        <h2>Cost</h2>
        {view.sessionUsage ? (
          <p data-testid="session-cost">{formatUsage(view.sessionUsage)}</p>
        ) : null}
        <ul>
          {Object.entries(view.agentTokens).map(([agent, tokens]) => (
            <li key={agent}>
              {agent}: {tokens.toLocaleString("en-US")} tokens
            </li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
