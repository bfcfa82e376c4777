// One session: header switches, the transcript, what waits on the user, the composer.
import type { EngineCommand, RewindRestore } from "@z-engine/protocol";
import { useCallback, useEffect, useMemo, useState } from "react";
import { api, follow } from "./api.js";
import { ApprovalCard, PlanCard, QuestionCard, TrustBanner } from "./cards.js";
import { Composer } from "./composer.js";
import { Row } from "./rows.js";
import { SidePanel } from "./side-panel.js";
import type { Entry } from "./state.js";
import { useView, ViewStore } from "./store.js";
import { VirtualList } from "./virtual-list.js";

const MODES = ["ask", "acceptEdits", "plan", "bypass"] as const;
const EFFORTS = ["low", "medium", "high", "max"] as const;

export function SessionView({ id, onBack }: { id: string; onBack: () => void }) {
  const store = useMemo(() => new ViewStore(), []);
  const view = useView(store);
  const [connected, setConnected] = useState(false);
  const [error, setError] = useState<string>();
  const [trustHidden, setTrustHidden] = useState(false);
  const [rewindAt, setRewindAt] = useState<string>();
  useEffect(
    () =>
      follow(
        id,
        store.lastCursor,
        (item) => store.add(item),
        (ok, why) => {
          setConnected(ok);
          if (why) setError(why);
        },
      ),
    [id, store],
  );
  const send = useCallback(
    (command: EngineCommand) => {
      api.send(id, command).then(
        () => setError(undefined),
        (e: Error) => setError(e.message),
      );
    },
    [id],
  );
  const running = view.runningTurn !== undefined;
  // Esc interrupts a running turn from anywhere on the page (the composer's completion list
  // takes an Esc for itself first).
  useEffect(() => {
    if (!running) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      send({ type: "interrupt" });
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [running, send]);
  const render = useCallback(
    (entry: Entry) => <Row entry={entry} onRewind={running ? undefined : setRewindAt} />,
    [running],
  );
  const rewind = (restore: RewindRestore) => {
    if (rewindAt) send({ type: "rewind", messageId: rewindAt as never, restore });
    setRewindAt(undefined);
  };
  return (
    <div className="session">
      <header className="top">
        <button type="button" onClick={onBack} aria-label="Back to sessions">
          ←
        </button>
        <h1>{view.title ?? "New session"}</h1>
        <span className={connected ? "live" : "offline"} data-testid="connection">
          {connected ? "live" : "reconnecting…"}
        </span>
        <label>
          Mode{" "}
          <select
            value={view.mode ?? ""}
            onChange={(e) => send({ type: "setMode", mode: e.target.value as "ask" })}
          >
            {view.mode ? null : <option value="">as set</option>}
            {MODES.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Effort{" "}
          <select
            value={view.effort ?? ""}
            onChange={(e) => send({ type: "setEffort", effort: e.target.value as "low" })}
          >
            {view.effort ? null : <option value="">as set</option>}
            {EFFORTS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <ModelField model={view.model} onSet={(model) => send({ type: "setModel", model })} />
        {running ? (
          <>
            <button
              type="button"
              onClick={() => send({ type: "interrupt" })}
              aria-keyshortcuts="Escape"
              title="Interrupt the running turn (Esc)"
            >
              Interrupt
            </button>
            <button type="button" className="danger" onClick={() => send({ type: "cancel" })}>
              Cancel
            </button>
          </>
        ) : null}
      </header>
      {view.trust && !trustHidden ? (
        <TrustBanner trust={view.trust} send={send} dismiss={() => setTrustHidden(true)} />
      ) : null}
      <div className="main">
        <main className="column">
          <VirtualList items={view.entries} keyOf={(e) => e.key} render={render} />
          <div className="waiting">
            {view.approvals.map((a) => (
              <ApprovalCard key={a.approvalId} approval={a} send={send} />
            ))}
            {view.questions.map((q) => (
              <QuestionCard key={q.id} question={q} send={send} />
            ))}
            {view.plans.map((p) => (
              <PlanCard key={p.id} plan={p} send={send} />
            ))}
          </div>
          {rewindAt ? (
            <div
              className="card rewind"
              role="dialog"
              aria-label="Rewind"
              data-testid="rewind-dialog"
            >
              Rewind to before this message:
              <button type="button" onClick={() => rewind("code")}>
                Code
              </button>
              <button type="button" onClick={() => rewind("conversation")}>
                Conversation
              </button>
              <button type="button" onClick={() => rewind("both")}>
                Both
              </button>
              <button type="button" onClick={() => setRewindAt(undefined)}>
                Keep
              </button>
            </div>
          ) : null}
          {error ? (
            <div className="row notice level-error" role="alert">
              {error}
            </div>
          ) : null}
          <Composer
            sessionId={id}
            running={running}
            onSubmit={(text) => send({ type: "submit", text })}
            onSteer={(text) => send({ type: "steer", text })}
            onCommand={(name, args) => send({ type: "runCommand", name, args })}
          />
        </main>
        <SidePanel view={view} send={send} />
      </div>
    </div>
  );
}

function ModelField({ model, onSet }: { model: string | undefined; onSet: (m: string) => void }) {
  const [value, setValue] = useState(model ?? "");
  useEffect(() => setValue(model ?? ""), [model]);
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) onSet(value.trim());
      }}
    >
      <label>
        Model <input value={value} onChange={(e) => setValue(e.target.value)} size={14} />
      </label>
    </form>
  );
}
