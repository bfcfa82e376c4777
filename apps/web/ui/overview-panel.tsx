// The side panel's Overview: the badge and the check records behind it, todos, checkpoints
// (what each turn changed, review and rewind from it) and what every agent spent.
import type { SessionAgentsReport } from "@z-engine/engine";
import type { Badge, CheckpointInfo, CheckRecord, RewindRestore, Usage } from "@z-engine/protocol";
import { useState } from "react";
import { api } from "./api.js";
import { BADGE_LABEL, formatUsage } from "./format.js";
import { RewindChoice, TodoList } from "./rows.js";
import { useData } from "./use-data.js";
import type { PageView } from "./view/types.js";

export interface OverviewProps {
  readonly sessionId: string;
  readonly view: PageView;
  readonly badge: Badge | undefined;
  readonly agents: SessionAgentsReport | undefined;
  readonly running: boolean;
  readonly reviewFrom: (checkpointId: string) => void;
  readonly rewind: (messageId: string, restore: RewindRestore) => void;
}

export function Overview(props: OverviewProps) {
  const { view } = props;
  return (
    <div className="panel-body">
      <Verification view={view} badge={props.badge} />
      {view.todos.length > 0 ? (
        <section aria-label="Todos">
          <h2>Todos</h2>
          <TodoList todos={view.todos} />
        </section>
      ) : null}
      <Checkpoints {...props} />
      <Cost view={view} agents={props.agents} />
    </div>
  );
}

/** The badge, a button that shows the check records behind it. */
function Verification({ view, badge }: { view: PageView; badge: Badge | undefined }) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-label="Verification" data-testid="badge-panel">
      <h2>Verification</h2>
      {badge ? (
        <>
          <button
            type="button"
            className={`badge badge-${badge.status}`}
            data-testid="badge"
            aria-expanded={open}
            aria-controls="check-records"
            title="Show the check records behind the badge"
            onClick={() => setOpen(!open)}
          >
            {BADGE_LABEL[badge.status]}
          </button>
          <p>{badge.reason}</p>
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

function promptOf(view: PageView, messageId: string): string {
  const entry = view.entries.find((e) => e.kind === "user" && e.messageId === messageId);
  return entry?.kind === "user" ? entry.text : "(an earlier message)";
}

function CheckpointFiles({
  sessionId,
  from,
  until,
}: {
  sessionId: string;
  from: string;
  until?: string;
}) {
  const changes = useData(() => api.changes(sessionId, from, until), [sessionId, from, until]);
  if (changes.error) return <p className="muted">{changes.error}</p>;
  if (!changes.value) return <p className="muted">Reading…</p>;
  if (changes.value.files.length === 0) return <p className="muted">No file differs.</p>;
  return (
    <ul className="file-list" data-testid="checkpoint-files">
      {changes.value.files.map((f) => (
        <li key={f.path}>
          <code>{f.path}</code> <span className="muted">{f.status}</span>{" "}
          <span className="add-count">+{f.added}</span>{" "}
          <span className="del-count">-{f.removed}</span>
        </li>
      ))}
    </ul>
  );
}

function CheckpointItem(
  props: OverviewProps & { checkpoint: CheckpointInfo; next?: CheckpointInfo },
) {
  const { checkpoint: c, next, view } = props;
  const [rewinding, setRewinding] = useState(false);
  return (
    <li data-testid="checkpoint">
      <details>
        <summary>
          <span className="checkpoint-prompt">“{promptOf(view, c.messageId).slice(0, 60)}”</span>{" "}
          <span className="muted">
            {new Date(c.createdAt).toLocaleTimeString()} · {c.files} files stored
          </span>
        </summary>
        <p className="muted">What this turn changed:</p>
        <CheckpointFiles
          sessionId={props.sessionId}
          from={c.id}
          {...(next ? { until: next.id } : {})}
        />
      </details>
      <div className="actions">
        <button type="button" className="small" onClick={() => props.reviewFrom(c.id)}>
          Review changes since
        </button>
        {props.running ? null : (
          <button type="button" className="small" onClick={() => setRewinding(!rewinding)}>
            Rewind to here…
          </button>
        )}
      </div>
      {rewinding ? (
        <RewindChoice
          label="Rewind to this checkpoint"
          pick={(restore) => props.rewind(c.messageId, restore)}
          close={() => setRewinding(false)}
        />
      ) : null}
    </li>
  );
}

function Checkpoints(props: OverviewProps) {
  const list = props.view.checkpoints;
  return (
    <section aria-label="Checkpoints" data-testid="checkpoints">
      <h2>Checkpoints</h2>
      {list.length === 0 ? (
        <p className="muted">None yet: one is taken before a turn's first edit.</p>
      ) : null}
      <ul className="checkpoint-list">
        {list.map((c, i) => (
          <CheckpointItem
            key={c.id}
            {...props}
            checkpoint={c}
            {...(list[i + 1] ? { next: list[i + 1] } : {})}
          />
        ))}
      </ul>
    </section>
  );
}

function Cost({ view, agents }: { view: PageView; agents: SessionAgentsReport | undefined }) {
  // The log's figures once the server has them (they count subagents after a reload too),
  // else what this page saw live.
  const rows: Array<[string, Usage]> =
    agents && agents.agents.length > 0
      ? [
          ["Main agent", agents.mainUsage],
          ...agents.agents.map((a): [string, Usage] => [
            `Agent ${a.agentType} (${a.agentId})`,
            a.usage,
          ]),
        ]
      : Object.entries(view.agentUsage).map(([who, u]): [string, Usage] => [
          who === "main" ? "Main agent" : `Agent ${who}`,
          u,
        ]);
  return (
    <section aria-label="Cost">
      <h2>Cost</h2>
      {view.sessionUsage ? (
        <p data-testid="session-cost">{formatUsage(view.sessionUsage)}</p>
      ) : (
        <p className="muted">Nothing spent yet.</p>
      )}
      {rows.length > 1 ? (
        <ul data-testid="agent-costs">
          {rows.map(([who, usage]) => (
            <li key={who}>
              <strong>{who}</strong>: {formatUsage(usage)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
