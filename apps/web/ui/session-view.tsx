// One session: its header, the transcript, what waits on the user, the composer and the side
// panel. The view is the pure fold of the session's events (view/); this file wires it to the
// server: commands, the header's status, the badge after a rewind, the agents report.
import type { Badge, EngineCommand, ImageBlock, RewindRestore } from "@z-engine/protocol";
import { useCallback, useEffect, useMemo, useState } from "react";
import { api, follow } from "./api.js";
import { ApprovalCard, PlanCard, QuestionCard, TrustBanner } from "./cards.js";
import { Composer } from "./composer.js";
import { Row, type RowActions, RowActionsContext } from "./rows.js";
import { SessionHeader } from "./session-header.js";
import { type PanelTab, SidePanel } from "./side-panel.js";
import { useAgents } from "./use-agents.js";
import { useView, ViewStore } from "./store.js";
import { useData } from "./use-data.js";
import type { Entry } from "./view/types.js";
import { VirtualList } from "./virtual-list.js";

interface Props {
  readonly id: string;
  readonly openMenu: () => void;
  /** A panel to show (the palette's "Changes", say); each new `n` opens it again. */
  readonly tab?: { readonly tab: PanelTab; readonly n: number } | undefined;
}

function useEscapeInterrupts(running: boolean, send: (c: EngineCommand) => void): void {
  // Esc interrupts a running turn from anywhere on the page (the composer's completion list
  // and the palette take an Esc for themselves first).
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
}

export function SessionView({ id, openMenu, tab: firstTab }: Props) {
  const store = useMemo(() => new ViewStore(), []);
  const view = useView(store);
  const [connected, setConnected] = useState(false);
  const [error, setError] = useState<string>();
  const [trustHidden, setTrustHidden] = useState(false);
  const [tab, setTab] = useState<PanelTab>(firstTab?.tab ?? "overview");
  const [panelOpen, setPanelOpen] = useState(false);
  const [changesFrom, setChangesFrom] = useState<string>();
  const [agent, setAgent] = useState<string>();
  const [images, setImages] = useState<Record<string, string[]>>({});
  const [freshBadge, setFreshBadge] = useState<{ cursor: number; badge: Badge }>();
  useEffect(() => {
    if (firstTab) {
      setTab(firstTab.tab);
      setPanelOpen(true);
    }
  }, [firstTab]);
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
  useEscapeInterrupts(running, send);
  const turnEnds = view.entries.filter((e) => e.kind === "turnEnd").length;
  const statusKey = `${view.runningTurn ?? ""}|${view.mode}|${view.model}|${view.effort}|${turnEnds}|${view.rewind?.cursor ?? ""}|${view.trust ? 1 : 0}|${connected}`;
  const status = useData(() => api.status(id), [id, statusKey]);
  const agents = useAgents(id, view, turnEnds, setError);
  // After a rewind the badge is read again from the check records against the files now.
  const rewind = view.rewind;
  useEffect(() => {
    if (!rewind) return;
    api.badge(id, rewind.filesChanged).then(
      (badge) => setFreshBadge({ cursor: rewind.cursor, badge }),
      () => undefined,
    );
  }, [id, rewind]);
  const lastEndCursor = turnEnds;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new turn's end supersedes the re-read badge
  useEffect(() => setFreshBadge(undefined), [lastEndCursor]);
  const badge = freshBadge && freshBadge.cursor === rewind?.cursor ? freshBadge.badge : view.badge;
  const doRewind = useCallback(
    (messageId: string, restore: RewindRestore) =>
      send({ type: "rewind", messageId: messageId as never, restore }),
    [send],
  );
  const agentOfCall = useCallback(
    (toolCallId: string) => {
      const found = agents.report?.agents.find((a) => a.toolCallId === toolCallId);
      setAgent(found?.agentId);
      setTab("agents");
      setPanelOpen(true);
    },
    [agents.report],
  );
  const actions: RowActions = useMemo(
    () => ({
      canRewind: !running,
      rewind: doRewind,
      openAgent: agentOfCall,
      stopAgent: (toolCallId) => agents.stop({ toolCallId }),
      imagesOf: (turnId) => images[turnId] ?? [],
    }),
    [running, doRewind, agentOfCall, agents.stop, images],
  );
  const render = useCallback((entry: Entry) => <Row entry={entry} />, []);
  const submit = (text: string, blocks: ImageBlock[], urls: string[]) => {
    api.send(id, { type: "submit", text, ...(blocks.length > 0 ? { images: blocks } : {}) }).then(
      (r) => {
        setError(undefined);
        if (r.turnId && urls.length > 0)
          setImages((now) => ({ ...now, [r.turnId as string]: urls }));
      },
      (e: Error) => setError(e.message),
    );
  };
  const agentLabel = (agentId: string | undefined) => {
    if (!agentId) return undefined;
    const known = agents.report?.agents.find((a) => a.agentId === agentId);
    return known ? `the ${known.agentType} agent (${agentId})` : `agent ${agentId}`;
  };
  return (
    <div className="session">
      <SessionHeader
        sessionId={id}
        title={view.title}
        status={status.value}
        mode={view.mode}
        model={view.model}
        effort={view.effort}
        badge={badge}
        running={running}
        connected={connected}
        send={send}
        openMenu={openMenu}
        openPanel={() => setPanelOpen(!panelOpen)}
      />
      {view.trust && !trustHidden ? (
        <TrustBanner trust={view.trust} send={send} dismiss={() => setTrustHidden(true)} />
      ) : null}
      <div className="main">
        <main className="column">
          <RowActionsContext.Provider value={actions}>
            <VirtualList items={view.entries} keyOf={(e) => e.key} render={render} />
          </RowActionsContext.Provider>
          <div className="waiting">
            {view.approvals.map((a) => (
              <ApprovalCard
                key={a.approvalId}
                approval={a}
                send={send}
                agentLabel={agentLabel(a.agentId)}
              />
            ))}
            {view.questions.map((q) => (
              <QuestionCard key={q.id} question={q} send={send} />
            ))}
            {view.plans.map((p) => (
              <PlanCard key={p.id} plan={p} send={send} />
            ))}
          </div>
          {error ? (
            <div className="row notice level-error" role="alert">
              {error}
            </div>
          ) : null}
          <Composer
            sessionId={id}
            running={running}
            onSubmit={submit}
            onSteer={(text) => send({ type: "steer", text })}
            onCommand={(name, args) => send({ type: "runCommand", name, args })}
            restore={rewind?.prompt ? { key: rewind.cursor, text: rewind.prompt } : undefined}
          />
        </main>
        <SidePanel
          sessionId={id}
          view={view}
          badge={badge}
          running={running}
          agents={agents.report}
          stopAgent={agents.stop}
          tab={tab}
          setTab={setTab}
          changesFrom={changesFrom}
          setChangesFrom={setChangesFrom}
          agent={agent}
          setAgent={setAgent}
          send={send}
          rewind={doRewind}
          open={panelOpen}
          close={() => setPanelOpen(false)}
        />
      </div>
    </div>
  );
}
