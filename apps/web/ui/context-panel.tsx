// What the model sees now: tokens used and left, the system sections with their sizes, the
// instruction files, skills, the repo map, MCP servers and tools, compactions and what they dropped.
import type { ContextPart } from "@z-engine/engine";
import { api } from "./api.js";
import { formatTokens } from "./format.js";
import { McpServerList } from "./mcp-servers.js";
import { useData } from "./use-data.js";
import type { PageView } from "./view/types.js";

function PartTable({ parts, label }: { parts: readonly ContextPart[]; label: string }) {
  return (
    <table className="parts" aria-label={label}>
      <tbody>
        {parts.map((p) => (
          <tr key={p.id}>
            <td>
              <code>{p.id}</code>
            </td>
            <td className="num">{formatTokens(p.tokens)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ContextMeter({ used, window }: { used: number; window: number }) {
  return (
    <meter
      className="meter"
      min={0}
      max={Math.max(1, window)}
      high={window * 0.8}
      value={Math.min(used, window)}
      aria-label="Context used"
    >
      {used} of {window}
    </meter>
  );
}

export function ContextPanel({ sessionId, view }: { sessionId: string; view: PageView }) {
  // Read again when the transcript grows, a compaction starts or ends, or a server changes state.
  const key = `${view.entries.length}|${view.compacting}|${JSON.stringify(view.mcpStates)}`;
  const report = useData(() => api.context(sessionId), [sessionId, key]);
  const r = report.value;
  if (report.error) return <p role="alert">{report.error}</p>;
  if (!r) return <p className="muted">Reading…</p>;
  const toolTokens = r.tools.reduce((n, t) => n + t.tokens, 0);
  const mcpTools = r.tools.filter((t) => t.id.startsWith("mcp__"));
  return (
    <div className="panel-body" data-testid="context-panel">
      <section aria-label="Context window">
        <h2>Context</h2>
        <p data-testid="context-usage">
          About {formatTokens(r.usage.used)} of {formatTokens(r.usage.window)} tokens used ·{" "}
          <strong>{formatTokens(r.usage.left)} left</strong> (
          {((r.usage.left / Math.max(1, r.usage.window)) * 100).toFixed(0)}%)
        </p>
        <ContextMeter used={r.usage.used} window={r.usage.window} />
        <p className="muted">
          Conversation: {r.messages.count} messages, {formatTokens(r.messages.tokens)} tokens ·
          tools: {r.tools.length}, {formatTokens(toolTokens)} tokens
        </p>
      </section>
      <section aria-label="System prompt">
        <h3>System prompt</h3>
        <PartTable parts={r.sections} label="System sections" />
      </section>
      <section aria-label="Instruction files">
        <h3>Instruction files</h3>
        {r.instructionFiles.length === 0 ? (
          <p className="muted">None (AGENTS.md, CLAUDE.md).</p>
        ) : (
          <PartTable parts={r.instructionFiles} label="Instruction files" />
        )}
      </section>
      <section aria-label="Skills">
        <h3>Skills</h3>
        {r.skills.length === 0 ? <p className="muted">None.</p> : null}
        <ul>
          {r.skills.map((s) => (
            <li key={s.name}>
              <strong>{s.name}</strong> <span className="muted">({s.scope})</span> {s.description}
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Repo map">
        <h3>Repo map</h3>
        <p data-testid="repo-map">
          {r.repoMap.state}
          {r.repoMap.state !== "off"
            ? ` · ${formatTokens(r.repoMap.tokens)} tokens, ${r.repoMap.files} files, ${r.repoMap.definitions} definitions`
            : ""}
        </p>
      </section>
      <section aria-label="MCP servers">
        <h3>MCP servers</h3>
        {r.mcpServers.length === 0 ? <p className="muted">None configured.</p> : null}
        <McpServerList sessionId={sessionId} servers={r.mcpServers} loggedIn={r.mcpLogins} />
        {mcpTools.length > 0 ? (
          <details>
            <summary>{mcpTools.length} MCP tools in the request</summary>
            <PartTable parts={mcpTools} label="MCP tools" />
          </details>
        ) : null}
      </section>
      <section aria-label="Tools">
        <details>
          <summary>All {r.tools.length} tool definitions</summary>
          <PartTable parts={r.tools} label="Tools" />
        </details>
      </section>
      <section aria-label="Compactions">
        <h3>Compactions</h3>
        {r.compactions.length === 0 ? (
          <p className="muted">None: the whole conversation is in the context.</p>
        ) : null}
        {r.clearedToolResults > 0 ? (
          <p>
            {r.clearedToolResults} old tool results cleared (their outputs are stored as artifacts).
          </p>
        ) : null}
        {r.compactions.map((c) => (
          <details key={c.at} data-testid="compaction-summary">
            <summary>
              {new Date(c.at).toLocaleTimeString()} · {c.trigger}: {c.droppedMessages} messages
              dropped ({formatTokens(c.tokensBefore)} → {formatTokens(c.tokensAfter)} tokens)
            </summary>
            <pre className="output">{c.summary}</pre>
          </details>
        ))}
      </section>
    </div>
  );
}
