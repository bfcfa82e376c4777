// Agents and jobs: subagents (running and finished, their cost, status and transcripts) and
// background shells (their output), each stoppable while it runs.
import type { AgentSummary, SessionAgentsReport } from "@z-engine/engine";
import type { EngineCommand, JobInfo } from "@z-engine/protocol";
import { useMemo, useState } from "react";
import { api } from "./api.js";
import { formatUsage } from "./format.js";
import { Row } from "./rows.js";
import type { AgentStopTarget } from "./use-agents.js";
import { useData } from "./use-data.js";
import { reduceView } from "./view/reduce.js";
import { emptyView, type Entry, type PageView } from "./view/types.js";

interface Props {
  readonly sessionId: string;
  readonly view: PageView;
  readonly agents: SessionAgentsReport | undefined;
  readonly selected: string | undefined;
  readonly select: (agentId: string | undefined) => void;
  readonly send: (command: EngineCommand) => void;
  readonly stop: (target: AgentStopTarget) => void;
}

function StopButton({
  agentId,
  label,
  stop,
}: {
  agentId: string;
  label: string;
  stop: Props["stop"];
}) {
  return (
    <button
      type="button"
      className="small danger"
      aria-label={`Stop ${label}`}
      onClick={() => stop({ agentId })}
    >
      Stop
    </button>
  );
}

function AgentTranscript({
  sessionId,
  agent,
  live,
}: {
  sessionId: string;
  agent: AgentSummary;
  live: Entry[] | undefined;
}) {
  const history = useData(
    () => api.agentHistory(sessionId, agent.agentId),
    [sessionId, agent.agentId, agent.status],
  );
  const stored = useMemo(() => {
    const events = history.value?.events ?? [];
    const folded = reduceView(
      emptyView(),
      events.map((envelope, cursor) => ({ cursor, replayed: true, envelope })),
    );
    return folded.agents[agent.agentId]?.entries ?? [];
  }, [history.value, agent.agentId]);
  const entries =
    agent.status === "running" && live && live.length > 0
      ? live
      : stored.length > 0
        ? stored
        : (live ?? []);
  return (
    <section
      className="agent-transcript"
      aria-label={`Transcript of agent ${agent.agentId}`}
      data-testid="agent-transcript"
    >
      {history.error && entries.length === 0 ? <p className="muted">{history.error}</p> : null}
      {entries.length === 0 && !history.error ? <p className="muted">Nothing yet.</p> : null}
      {entries.map((e) => (
        <Row key={e.key} entry={e} />
      ))}
    </section>
  );
}

function JobRow({
  sessionId,
  job,
  send,
}: {
  sessionId: string;
  job: JobInfo;
  send: (c: EngineCommand) => void;
}) {
  const [open, setOpen] = useState(false);
  const output = useData(
    () => (open ? api.job(sessionId, job.id) : Promise.resolve(undefined)),
    [sessionId, job.id, job.status, open],
  );
  return (
    <li data-testid="job" data-status={job.status}>
      <div className="job-line">
        <span className="muted">{job.kind}</span> · {job.description} ·{" "}
        <strong>{job.status}</strong>
        {job.exitCode != null ? ` (exit ${job.exitCode})` : ""}
        <button
          type="button"
          className="small quiet"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? "Hide output" : "Output"}
        </button>
        {job.status === "running" ? (
          <button
            type="button"
            className="small danger"
            aria-label={`Stop ${job.description}`}
            onClick={() => send({ type: "killJob", jobId: job.id })}
          >
            Stop
          </button>
        ) : null}
        {open && job.status === "running" ? (
          <button type="button" className="small quiet" onClick={output.reload}>
            Refresh
          </button>
        ) : null}
      </div>
      {open ? (
        <pre className="output" data-testid="job-output">
          {output.value?.output || (output.loading ? "Reading…" : "(no output yet)")}
        </pre>
      ) : null}
    </li>
  );
}

export function AgentsPanel(props: Props) {
  const { view, agents, selected } = props;
  const list = agents?.agents ?? [];
  // Agents seen live that the report does not list yet (it is read when a turn ends).
  const liveOnly = Object.keys(view.agents).filter((id) => !list.some((a) => a.agentId === id));
  const chosen = list.find((a) => a.agentId === selected);
  return (
    <div className="panel-body" data-testid="agents-panel">
      <section aria-label="Agents">
        <h2>Agents</h2>
        {list.length === 0 && liveOnly.length === 0 ? (
          <p className="muted">No subagent has run.</p>
        ) : null}
        <ul className="agent-list">
          {list.map((a) => (
            <li key={a.agentId} data-testid="agent" data-status={a.status}>
              <button
                type="button"
                className="link"
                aria-expanded={selected === a.agentId}
                onClick={() => props.select(selected === a.agentId ? undefined : a.agentId)}
              >
                <strong>{a.agentType}</strong> {a.description}
              </button>{" "}
              <span className={`agent-status status-${a.status}`}>{a.status}</span>
              {a.background ? <span className="muted"> · background</span> : null}
              {a.status === "running" ? (
                <StopButton
                  agentId={a.agentId}
                  label={`the ${a.agentType} agent`}
                  stop={props.stop}
                />
              ) : null}
              <div className="muted">
                {a.agentId} · {formatUsage(a.usage)}
              </div>
              {a.reason ? <div className="muted">{a.reason}</div> : null}
            </li>
          ))}
          {liveOnly.map((id) => (
            <li key={id} data-testid="agent" data-status="running">
              <strong>agent</strong> {id}{" "}
              <span className="agent-status status-running">running</span>
              <StopButton agentId={id} label={`agent ${id}`} stop={props.stop} />
            </li>
          ))}
        </ul>
        {chosen ? (
          <AgentTranscript
            sessionId={props.sessionId}
            agent={chosen}
            live={view.agents[chosen.agentId]?.entries}
          />
        ) : null}
      </section>
      <section aria-label="Jobs" data-testid="jobs">
        <h2>Background jobs</h2>
        {view.jobs.length === 0 ? <p className="muted">None.</p> : null}
        <ul className="job-list">
          {view.jobs.map((j) => (
            <JobRow key={j.id} sessionId={props.sessionId} job={j} send={props.send} />
          ))}
        </ul>
      </section>
    </div>
  );
}
