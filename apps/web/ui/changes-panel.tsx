// The Changes screen: every file the session changed since a checkpoint as one review (per
// file diffs and counts), reverted per file or per hunk through the checkpoint, and worktree
// agents' pending changes, applied or discarded by the user, with the merge report.
import type { ChangedFile, PendingAgentChanges } from "@z-engine/engine";
import { useState } from "react";
import { api } from "./api.js";
import { HunkView } from "./diff-view.js";
import { Markdown } from "./markdown.js";
import { useData } from "./use-data.js";
import type { PageView } from "./view/types.js";

interface Props {
  readonly sessionId: string;
  readonly view: PageView;
  readonly running: boolean;
  /** The checkpoint to compare against (default: the session's first). */
  readonly from: string | undefined;
  readonly setFrom: (checkpointId: string | undefined) => void;
}

function promptOf(view: PageView, messageId: string): string {
  const entry = view.entries.find((e) => e.kind === "user" && e.messageId === messageId);
  return entry?.kind === "user" ? entry.text.slice(0, 50) : "an earlier message";
}

const NO_DIFF: Record<string, string> = {
  binary: "Binary file: no line diff.",
  tooLarge: "Too large to diff here.",
  link: "A link: rewind the code to bring it back.",
};

function FileReview(props: {
  file: ChangedFile;
  canRevert: boolean;
  revert: (file: ChangedFile, hunks?: number[]) => void;
}) {
  const { file, canRevert, revert } = props;
  return (
    <details className="file-review" open data-testid="changed-file" data-path={file.path}>
      <summary className="file-summary">
        <code>{file.path}</code>{" "}
        <span className={`file-status status-${file.status}`}>{file.status}</span>{" "}
        <span className="add-count">+{file.added}</span>{" "}
        <span className="del-count">-{file.removed}</span>
        {canRevert ? (
          <button
            type="button"
            className="small"
            onClick={(e) => {
              e.preventDefault();
              revert(file);
            }}
          >
            Revert file
          </button>
        ) : null}
      </summary>
      {file.noDiff ? <p className="muted">{NO_DIFF[file.noDiff]}</p> : null}
      {file.hunks.map((h) => (
        <HunkView
          key={h.index}
          hunk={h}
          onRevert={canRevert && !file.noDiff ? () => revert(file, [h.index]) : undefined}
        />
      ))}
    </details>
  );
}

function AgentChanges(props: {
  sessionId: string;
  pending: PendingAgentChanges;
  running: boolean;
  done: () => void;
}) {
  const { pending } = props;
  const [report, setReport] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const decide = (apply: boolean) => {
    setBusy(true);
    api.resolveWorktree(props.sessionId, pending.agentId, apply).then(
      (outcome) => {
        setBusy(false);
        setReport({ ok: outcome.ok, text: outcome.report });
        if (outcome.ok) props.done();
      },
      (e: Error) => {
        setBusy(false);
        setReport({ ok: false, text: e.message });
      },
    );
  };
  return (
    <section
      className="agent-changes card"
      data-testid="agent-changes"
      aria-label={`Changes of agent ${pending.agentId}`}
    >
      <h3>
        {pending.agentType} agent: {pending.description}
      </h3>
      <p className="muted">
        {pending.files.length} file{pending.files.length === 1 ? "" : "s"} in its worktree, not yet
        in the project ({pending.agentId})
      </p>
      {pending.files.map((f) => (
        <FileReview key={f.path} file={f} canRevert={false} revert={() => {}} />
      ))}
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={busy || props.running}
          onClick={() => decide(true)}
        >
          Apply
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy || props.running}
          onClick={() => decide(false)}
        >
          Discard
        </button>
        {props.running ? <span className="muted">Decide once the turn ends.</span> : null}
      </div>
      {report ? (
        <div
          className={report.ok ? "merge-report" : "merge-report conflict"}
          role="status"
          data-testid="merge-report"
        >
          <Markdown text={report.text} />
        </div>
      ) : null}
    </section>
  );
}

export function ChangesPanel(props: Props) {
  const { sessionId, view, running, from } = props;
  // Read again when a turn ends, a checkpoint or a rewind arrives, or the user asks.
  const key = `${view.checkpoints.length}|${view.entries.filter((e) => e.kind === "turnEnd").length}|${view.rewind?.cursor ?? ""}`;
  const changes = useData(() => api.changes(sessionId, from), [sessionId, from, key]);
  const worktrees = useData(() => api.worktrees(sessionId), [sessionId, key]);
  const [problem, setProblem] = useState<string>();
  const revert = (file: ChangedFile, hunks?: number[]) => {
    const checkpointId = changes.value?.checkpoint?.id;
    if (!checkpointId) return;
    api
      .revert(sessionId, {
        checkpointId,
        path: file.path,
        expectSha: file.currentSha,
        ...(hunks ? { hunks } : {}),
      })
      .then(
        (outcome) => {
          setProblem(outcome.ok ? undefined : outcome.reason);
          changes.reload();
        },
        (e: Error) => setProblem(e.message),
      );
  };
  const value = changes.value;
  const added = value?.files.reduce((n, f) => n + f.added, 0) ?? 0;
  const removed = value?.files.reduce((n, f) => n + f.removed, 0) ?? 0;
  return (
    <div className="panel-body" data-testid="changes-panel">
      <section aria-label="Changes since a checkpoint">
        <h2>Changes</h2>
        {view.checkpoints.length > 0 ? (
          <label className="since">
            Since{" "}
            <select value={from ?? ""} onChange={(e) => props.setFrom(e.target.value || undefined)}>
              <option value="">the session's first checkpoint</option>
              {view.checkpoints.map((c) => (
                <option key={c.id} value={c.id}>
                  before “{promptOf(view, c.messageId)}”
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {changes.error ? <p role="alert">{changes.error}</p> : null}
        {value?.note ? <p className="muted">{value.note}</p> : null}
        {value && !value.checkpoint ? (
          <p className="muted">No checkpoint yet: nothing has changed.</p>
        ) : null}
        {value?.checkpoint && value.files.length === 0 ? (
          <p className="muted">No file differs from the checkpoint.</p>
        ) : null}
        {value && value.files.length > 0 ? (
          <p className="review-stats" data-testid="review-stats">
            {value.files.length} file{value.files.length === 1 ? "" : "s"} changed,{" "}
            <span className="add-count">+{added}</span>{" "}
            <span className="del-count">-{removed}</span>
          </p>
        ) : null}
        {problem ? (
          <p role="alert" className="problem">
            {problem}
          </p>
        ) : null}
        {running && value && value.files.length > 0 ? (
          <p className="muted">Reverting waits for the turn to end.</p>
        ) : null}
        {value?.files.map((f) => (
          <FileReview key={f.path} file={f} canRevert={!running} revert={revert} />
        ))}
      </section>
      {worktrees.value && worktrees.value.length > 0 ? (
        <section aria-label="Pending agent changes">
          <h2>Pending from agents</h2>
          {worktrees.value.map((p) => (
            <AgentChanges
              key={p.agentId}
              sessionId={sessionId}
              pending={p}
              running={running}
              done={() => {
                worktrees.reload();
                changes.reload();
              }}
            />
          ))}
        </section>
      ) : null}
    </div>
  );
}
