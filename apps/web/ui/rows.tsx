// The transcript's rows: one component per entry kind.
import type { ToolDisplay, Usage } from "@z-engine/protocol";
import { memo } from "react";
import { CodeBlock, Markdown } from "./markdown.js";
import type { Entry } from "./state.js";

export function DiffView({ display }: { display: Extract<ToolDisplay, { kind: "diff" }> }) {
  return (
    <section className="diff" aria-label={`diff of ${display.path}`}>
      <div className="diff-head">
        {display.path} <span className="add">+{display.added}</span>{" "}
        <span className="del">-{display.removed}</span>
      </div>
      <pre>
        {display.diff.split("\n").map((line, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are positional
            key={i}
            className={
              line.startsWith("+") && !line.startsWith("+++")
                ? "add"
                : line.startsWith("-") && !line.startsWith("---")
                  ? "del"
                  : line.startsWith("@@")
                    ? "hunk"
                    : undefined
            }
          >
            {line || " "}
          </div>
        ))}
      </pre>
    </section>
  );
}

export function DisplayView({ display }: { display: ToolDisplay }) {
  switch (display.kind) {
    case "diff":
      return <DiffView display={display} />;
    case "command":
      return (
        <div>
          <CodeBlock code={`$ ${display.command}`} lang="sh" />
          {display.output ? <pre className="output">{display.output}</pre> : null}
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

export function formatUsage(u: Usage): string {
  const tokens = u.input + u.output + u.cacheRead + u.cacheWrite;
  return `${tokens.toLocaleString("en-US")} tokens (${u.input} in, ${u.output} out, ${u.cacheRead} cached) · $${u.costUsd.toFixed(4)}`;
}

export const BADGE_LABEL: Record<string, string> = {
  verified: "Verified",
  unverified: "Unverified",
  failed: "Failed",
  notApplicable: "No code changed",
};

function ToolRow({ entry }: { entry: Extract<Entry, { kind: "tool" }> }) {
  return (
    <details className={`tool status-${entry.status}`} data-testid="tool">
      <summary>
        <span className="tool-name">{entry.name}</span>{" "}
        {entry.title.startsWith(entry.name)
          ? entry.title.slice(entry.name.length).trim()
          : entry.title}{" "}
        <span className="status">{entry.status}</span>
        {entry.durationMs !== undefined ? (
          <span className="muted"> {(entry.durationMs / 1000).toFixed(1)} s</span>
        ) : null}
        {entry.agentId ? <span className="muted"> · agent {entry.agentId}</span> : null}
      </summary>
      {entry.progress ? <pre className="output">{entry.progress}</pre> : null}
      {entry.display ? <DisplayView display={entry.display} /> : null}
      {!entry.display && entry.input !== undefined ? (
        <pre className="output">{JSON.stringify(entry.input, null, 2)}</pre>
      ) : null}
    </details>
  );
}

export const Row = memo(function Row({
  entry,
  onRewind,
}: {
  entry: Entry;
  onRewind?: ((messageId: string) => void) | undefined;
}) {
  switch (entry.kind) {
    case "user":
      return (
        <div className="row user" data-testid="user-message">
          <div className="who">You</div>
          <div className="body">{entry.text}</div>
          {onRewind ? (
            <button type="button" className="small" onClick={() => onRewind(entry.messageId)}>
              Rewind…
            </button>
          ) : null}
        </div>
      );
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
        <div className={`row notice level-${entry.level}`} role="status">
          {entry.message}
        </div>
      );
    case "turnEnd":
      return (
        <div className="row turn-end" data-testid="turn-end">
          <span className={`badge badge-${entry.badge.status}`}>
            {BADGE_LABEL[entry.badge.status]}
          </span>{" "}
          {entry.outcome} in {(entry.durationMs / 1000).toFixed(1)} s · {formatUsage(entry.usage)}
          {entry.allAgents ? (
            <span data-testid="turn-all-agents">
              {" "}
              · with subagents {formatUsage(entry.allAgents)}
            </span>
          ) : null}
          {entry.reason ? <div className="muted">{entry.reason}</div> : null}
        </div>
      );
    case "output":
      return (
        <div className="row output" data-testid="command-output">
          <div className="who">/{entry.name}</div>
          <Markdown text={entry.markdown} />
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
