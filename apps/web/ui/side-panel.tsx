// The side panel: the badge with its reason and check records, todos, jobs, checkpoints and
// cost per agent.
import type { CheckRecord, EngineCommand } from "@z-engine/protocol";
import { useState } from "react";
import { BADGE_LABEL, formatUsage, TodoList } from "./rows.js";
import type { SessionView } from "./state.js";

export function SidePanel({ view, send }: { view: SessionView; send: (c: EngineCommand) => void }) {
  return (
    <aside className="side" aria-label="Session details">
      <Verification view={view} />
      {view.todos.length > 0 ? (
        <section aria-label="Todos">
          <h2>Todos</h2>
          <TodoList todos={view.todos} />
        </section>
      ) : null}
      <Jobs view={view} send={send} />
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
      <Cost view={view} />
    </aside>
  );
}

/** The badge, a button that shows the check records behind it. */
function Verification({ view }: { view: SessionView }) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-label="Verification" data-testid="badge-panel">
      <h2>Verification</h2>
      {view.badge ? (
        <>
          <button
            type="button"
            className={`badge badge-${view.badge.status}`}
            data-testid="badge"
            aria-expanded={open}
            aria-controls="check-records"
            title="Show the check records behind the badge"
            onClick={() => setOpen(!open)}
          >
            {BADGE_LABEL[view.badge.status]}
          </button>
          <p>{view.badge.reason}</p>
        </>
      ) : (
        <p className="muted">No turn yet.</p>
      )}
      {open ? (
        <section id="check-records" aria-label="Check records" data-testid="check-records">
          <h3>Check records ({view.checks.length})</h3>
          {view.checks.length === 0 ? <p className="muted">No check has run.</p> : null}
          <ul className="checks">
            {view.checks.map((c) => (
              <CheckRow key={c.runId} check={c} />
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}

function CheckRow({ check: c }: { check: CheckRecord }) {
  return (
    <li data-testid="check-record">
      <strong>{c.checkId}</strong> {c.passed ? "passed" : "failed"} ·{" "}
      {c.exitCode === null ? "killed" : `exit ${c.exitCode}`} · {(c.durationMs / 1000).toFixed(1)} s
      {c.counts ? ` · ${c.counts.passed} passed, ${c.counts.failed} failed` : ""}
      <div>
        <code>$ {c.command}</code>
      </div>
      <pre className="output">{c.outputTail}</pre>
    </li>
  );
}

function Jobs({ view, send }: { view: SessionView; send: (c: EngineCommand) => void }) {
  return (
    <section aria-label="Jobs" data-testid="jobs">
      <h2>Jobs</h2>
      {view.jobs.length === 0 ? <p className="muted">None.</p> : null}
      <ul>
        {view.jobs.map((j) => (
          <li key={j.id} data-testid="job" data-status={j.status}>
            {j.kind} · {j.description} · <strong>{j.status}</strong>
            {j.exitCode != null ? ` (exit ${j.exitCode})` : ""}
            {j.status === "running" ? (
              <button
                type="button"
                className="small"
                aria-label={`Stop ${j.description}`}
                onClick={() => send({ type: "killJob", jobId: j.id })}
              >
                Stop
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Cost({ view }: { view: SessionView }) {
  const agents = Object.entries(view.agentUsage);
  return (
    <section aria-label="Cost">
      <h2>Cost</h2>
      {view.sessionUsage ? (
        <p data-testid="session-cost">{formatUsage(view.sessionUsage)}</p>
      ) : (
        <p className="muted">Nothing spent yet.</p>
      )}
      {agents.length > 0 ? (
        <ul data-testid="agent-costs">
          {agents.map(([agent, usage]) => (
            <li key={agent}>
              <strong>{agent === "main" ? "Main agent" : `Agent ${agent}`}</strong>:{" "}
              {formatUsage(usage)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
