// The session header: folder, branch, the model (a picker from the catalog), mode, effort,
// the badge, context left, and Interrupt/Cancel (icons on narrow screens).
import type { ModelChoice, SessionStatus } from "@z-engine/engine";
import { Icon, IconButton } from "./icons.js";
import type { Badge, Effort, EngineCommand, PermissionMode } from "@z-engine/protocol";
import { useState } from "react";
import { api } from "./api.js";
import {
  BADGE_LABEL,
  baseName,
  EFFORTS,
  formatCost,
  formatTokens,
  MODE_LABEL,
  MODES,
} from "./format.js";
import { useData } from "./use-data.js";

interface Props {
  readonly sessionId: string;
  readonly title: string | undefined;
  readonly status: SessionStatus | undefined;
  readonly mode: string | undefined;
  readonly model: string | undefined;
  readonly effort: string | undefined;
  readonly badge: Badge | undefined;
  readonly running: boolean;
  readonly connected: boolean;
  readonly send: (command: EngineCommand) => void;
  readonly openMenu: () => void;
  readonly openPanel: () => void;
}

function ModelPicker({
  sessionId,
  model,
  send,
}: {
  sessionId: string;
  model: string;
  send: (c: EngineCommand) => void;
}) {
  const [custom, setCustom] = useState(false);
  const [typed, setTyped] = useState("");
  const choices = useData(() => api.models(sessionId), [sessionId, model]);
  const list: ModelChoice[] = choices.value ?? [];
  if (custom)
    return (
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) send({ type: "setModel", model: typed.trim() });
          setCustom(false);
        }}
      >
        <input
          aria-label="Model id"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          placeholder="model id"
          size={16}
        />
      </form>
    );
  return (
    <select
      aria-label="Model"
      className="model-select"
      value={model}
      onChange={(e) => {
        if (e.target.value === "__other__") setCustom(true);
        else send({ type: "setModel", model: e.target.value });
      }}
    >
      {list.some((c) => c.id === model) ? null : <option value={model}>{model}</option>}
      {list.map((c) => (
        <option
          key={c.id}
          value={c.id}
          title={`${formatTokens(c.contextWindow)} context · ${formatCost(c.inputPrice)}/${formatCost(c.outputPrice)} per M tokens`}
        >
          {c.name ?? c.id}
          {c.roles.length > 0 ? ` (${c.roles.join(", ")})` : ""}
        </option>
      ))}
      <option value={"__other__"}>Other model…</option>
    </select>
  );
}

export function SessionHeader(props: Props) {
  const { status, running, send } = props;
  const mode = props.mode ?? status?.mode;
  const model = props.model ?? status?.model;
  const effort = props.effort ?? status?.effort;
  const ctx = status?.context;
  const left = ctx ? Math.round((ctx.left / Math.max(1, ctx.window)) * 100) : undefined;
  return (
    <header className="top" data-testid="session-header">
      <IconButton icon="menu" label="Sessions" className="menu-button" onClick={props.openMenu} />
      <div className="title-block">
        <h1>{props.title ?? "New session"}</h1>
        <div className="where muted">
          {status ? (
            <span className="folder" title={status.projectRoot} data-testid="header-folder">
              <Icon name="folder" /> {baseName(status.projectRoot)}
            </span>
          ) : null}
          {status?.branch ? (
            <span className="branch" data-testid="header-branch">
              <Icon name="branch" /> {status.branch}
            </span>
          ) : null}
          {status && !status.trusted ? <span className="untrusted">untrusted</span> : null}
          <span className={props.connected ? "live" : "offline"} data-testid="connection">
            {props.connected ? "live" : "reconnecting…"}
          </span>
        </div>
      </div>
      <div className="controls">
        {model ? <ModelPicker sessionId={props.sessionId} model={model} send={send} /> : null}
        <select
          aria-label="Mode"
          value={mode ?? ""}
          onChange={(e) => send({ type: "setMode", mode: e.target.value as PermissionMode })}
        >
          {mode ? null : <option value="">mode</option>}
          {MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABEL[m]}
            </option>
          ))}
        </select>
        <select
          aria-label="Effort"
          value={effort ?? ""}
          onChange={(e) => send({ type: "setEffort", effort: e.target.value as Effort })}
        >
          {effort ? null : <option value="">default effort</option>}
          {EFFORTS.map((m) => (
            <option key={m} value={m}>
              {m} effort
            </option>
          ))}
        </select>
        {props.badge ? (
          <span
            className={`badge badge-${props.badge.status}`}
            data-testid="header-badge"
            title={props.badge.reason}
          >
            {BADGE_LABEL[props.badge.status]}
          </span>
        ) : null}
        {left !== undefined && ctx ? (
          <span
            className={`context-left${left < 20 ? " low" : ""}`}
            data-testid="context-left"
            title={`${formatTokens(ctx.used)} of ${formatTokens(ctx.window)} tokens used`}
          >
            {left}% context left
          </span>
        ) : null}
        {running ? (
          <span className="turn-buttons">
            <button
              type="button"
              onClick={() => send({ type: "interrupt" })}
              aria-label="Interrupt"
              aria-keyshortcuts="Escape"
              title="Interrupt the running turn (Esc)"
            >
              <Icon name="pause" />
              <span className="wide-only">Interrupt</span>
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => send({ type: "cancel" })}
              aria-label="Cancel"
              title="Cancel the turn and drop queued steering"
            >
              <Icon name="stop" />
              <span className="wide-only">Cancel</span>
            </button>
          </span>
        ) : null}
        <IconButton
          icon="panel"
          label="Details"
          className="panel-button"
          onClick={props.openPanel}
        />
      </div>
    </header>
  );
}
