// The transcript's rows: one component per entry kind. What a row can do (rewind, open an
// agent) comes from the RowActions context, so a row re-renders only when its entry changed.
import type { RewindRestore, ToolDisplay } from "@z-engine/protocol";
import { createContext, memo, useContext, useState } from "react";
import { DiffView } from "./diff-view.js";
import { BADGE_LABEL, formatCount, formatUsage, OUTCOME_LABEL } from "./format.js";
import { CodeBlock, Markdown } from "./markdown.js";
import type { Entry } from "./view/types.js";

/** What the rows of a transcript may do. */
export interface RowActions {
  /** Rewind is offered (no turn runs, and the transcript is the main one). */
  readonly canRewind: boolean;
  readonly rewind: (messageId: string, restore: RewindRestore) => void;
  /** Opens a subagent's transcript from its Agent call. */
  readonly openAgent: (toolCallId: string) => void;
  /** Stops the subagent a running Agent call runs. */
  readonly stopAgent: (toolCallId: string) => void;
  /** Images this page sent with a turn's prompt, as data URLs. */
  readonly imagesOf: (turnId: string) => readonly string[];
}

export const RowActionsContext = createContext<RowActions>({
  canRewind: false,
  rewind: () => {},
  openAgent: () => {},
  stopAgent: () => {},
  imagesOf: () => [],
});

export function DisplayView({ display }: { display: ToolDisplay }) {
  switch (display.kind) {
    case "diff":
      return <DiffView display={display} />;
    case "command":
      return (
        <div>
          <CodeBlock code={`$ ${display.command}`} lang="sh" />
          {display.output ? (
            <pre className="output" data-testid="command-output-text">
              {display.output}
            </pre>
          ) : null}
          {display.exitCode != null ? <div className="muted">exit {display.exitCode}</div> : null}
        </div>
      );
    case "files":
      return (
        <pre className="output">
          {display.paths.join("\n")}
          {display.truncated ? "\n…" : ""}
        </pre>
      );
    case "todos":
      return <TodoList todos={display.todos} />;
    default:
      return <pre className="output">{display.text}</pre>;
  }
}

export function TodoList({ todos }: { todos: ReadonlyArray<{ content: string; status: string }> }) {
  return (
    <ul className="todos">
      {todos.map((t, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: todos have no id
        <li key={i} className={`todo-${t.status}`}>
          <span aria-hidden="true">
            {t.status === "completed" ? "☑" : t.status === "in_progress" ? "◐" : "☐"}
          </span>{" "}
          {t.content}
        </li>
      ))}
    </ul>
  );
}

/** Whether a finished call's display already shows what its live progress showed. */
function displayShowsOutput(display: ToolDisplay | undefined): boolean {
  return display?.kind === "command" || display?.kind === "text";
}

function ToolRow({ entry }: { entry: Extract<Entry, { kind: "tool" }> }) {
  const actions = useContext(RowActionsContext);
  const running = entry.status === "running";
  // Live output while the call runs; once it ended, its display holds the output (shown once).
  const progress = entry.progress && (running || !displayShowsOutput(entry.display));
  return (
    <details
      className={`tool status-${entry.status}`}
      data-testid="tool"
      open={running || undefined}
    >
      <summary>
        <span className="tool-name">{entry.name}</span>{" "}
        <span className="tool-title">
          {entry.title.startsWith(entry.name)
            ? entry.title.slice(entry.name.length).trim()
            : entry.title}
        </span>{" "}
        <span className="status">{running ? "running…" : entry.status}</span>
        {entry.durationMs !== undefined ? (
          <span className="muted"> {(entry.durationMs / 1000).toFixed(1)} s</span>
        ) : null}
      </summary>
      {progress ? (
        <pre className="output" data-testid="tool-progress">
          {entry.progress}
        </pre>
      ) : null}
      {entry.display ? <DisplayView display={entry.display} /> : null}
      {!entry.display && !progress && entry.input !== undefined ? (
        <pre className="output">{JSON.stringify(entry.input, null, 2)}</pre>
      ) : null}
      {entry.name === "Agent" || entry.name === "Task" ? (
        <button type="button" className="small" onClick={() => actions.openAgent(entry.toolCallId)}>
          Open the agent's transcript
        </button>
      ) : null}
      {running && (entry.name === "Agent" || entry.name === "Task") ? (
        <button
          type="button"
          className="small danger"
          onClick={() => actions.stopAgent(entry.toolCallId)}
        >
          Stop the agent
        </button>
      ) : null}
    </details>
  );
}

/** The three ways to rewind and Cancel; `pick` gets the choice, then `close` runs. */
export function RewindChoice(props: {
  label: string;
  text?: string;
  pick: (restore: RewindRestore) => void;
  close: () => void;
}) {
  const pick = (restore: RewindRestore) => {
    props.pick(restore);
    props.close();
  };
  const close = props.close;
  return (
    <div
      className="rewind-choice"
      role="dialog"
      aria-label={props.label}
      data-testid="rewind-dialog"
    >
      {props.text ? <span>{props.text}</span> : null}
      <button type="button" onClick={() => pick("both")}>
        Code and conversation
      </button>
      <button type="button" onClick={() => pick("conversation")}>
        Conversation only
      </button>
      <button type="button" onClick={() => pick("code")}>
        Code only
      </button>
      <button type="button" className="quiet" onClick={close}>
        Cancel
      </button>
    </div>
  );
}

function UserRow({ entry }: { entry: Extract<Entry, { kind: "user" }> }) {
  const actions = useContext(RowActionsContext);
  const [choosing, setChoosing] = useState(false);
  const images = actions.imagesOf(entry.turnId);
  return (
    <div className="row user" data-testid="user-message">
      <div className="bubble">
        <div className="body">{entry.text}</div>
        {images.length > 0 ? (
          <div className="thumbs">
            {images.map((src, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: images are positional
              <img key={i} src={src} alt={`attachment ${i + 1}`} />
            ))}
          </div>
        ) : null}
      </div>
      {actions.canRewind && !choosing ? (
        <button
          type="button"
          className="small quiet rewind-button"
          onClick={() => setChoosing(true)}
        >
          Rewind…
        </button>
      ) : null}
      {choosing && actions.canRewind ? (
        <RewindChoice
          label="Rewind"
          text="Rewind to before this message:"
          pick={(restore) => actions.rewind(entry.messageId, restore)}
          close={() => setChoosing(false)}
        />
      ) : null}
    </div>
  );
}

function TurnEndRow({ entry }: { entry: Extract<Entry, { kind: "turnEnd" }> }) {
  const failed = entry.outcome === "failed" || entry.outcome === "budgetExhausted";
  return (
    <div className="row turn-end" data-testid="turn-end" data-outcome={entry.outcome}>
      {failed ? (
        <div className="turn-error" role="alert" data-testid="turn-error">
          <strong>The turn {OUTCOME_LABEL[entry.outcome] ?? entry.outcome}.</strong>{" "}
          {entry.reason ?? "No reason was given."}
        </div>
      ) : null}
      <div className="turn-line">
        <span className={`badge badge-${entry.badge.status}`}>
          {BADGE_LABEL[entry.badge.status]}
        </span>{" "}
        {OUTCOME_LABEL[entry.outcome] ?? entry.outcome} in {(entry.durationMs / 1000).toFixed(1)} s
        · {formatUsage(entry.usage)}
        {entry.allAgents ? (
          <span data-testid="turn-all-agents">
            {" "}
            · with subagents {formatUsage(entry.allAgents)}
          </span>
        ) : null}
      </div>
      {entry.reason && !failed ? <div className="muted">{entry.reason}</div> : null}
    </div>
  );
}

export const Row = memo(function Row({ entry }: { entry: Entry }) {
  switch (entry.kind) {
    case "user":
      return <UserRow entry={entry} />;
    case "assistant":
      return (
        <div className="row assistant" data-testid="assistant-message">
          {entry.thinking ? (
            <details className="thinking">
              <summary>Thinking</summary>
              <div className="muted pre">{entry.thinking}</div>
            </details>
          ) : null}
          <Markdown text={entry.text} />
          {entry.done ? null : (
            <span className="cursor" aria-hidden="true" data-testid="streaming" />
          )}
        </div>
      );
    case "tool":
      return <ToolRow entry={entry} />;
    case "notice":
      return (
        <div className={`row notice level-${entry.level}`} role="status" data-code={entry.code}>
          {entry.message}
        </div>
      );
    case "turnEnd":
      return <TurnEndRow entry={entry} />;
    case "output":
      return (
        <div className="row output" data-testid="command-output">
          <div className="who">/{entry.name}</div>
          <Markdown text={entry.markdown} />
        </div>
      );
    case "compaction":
      return (
        <div className="row divider" data-testid="compaction">
          Context compacted: {entry.dropped} messages summarised ({formatCount(entry.tokensBefore)}{" "}
          → {formatCount(entry.tokensAfter)} tokens)
        </div>
      );
    default:
      return (
        <div className="row divider" data-testid="divider">
          {entry.text}
        </div>
      );
  }
});
