// The side panel: Overview, Changes, Agents (and jobs), Context, as tabs.
import type { SessionAgentsReport } from "@z-engine/engine";
import { IconButton } from "./icons.js";
import type { Badge, EngineCommand, RewindRestore } from "@z-engine/protocol";
import { type KeyboardEvent, useRef } from "react";
import { AgentsPanel } from "./agents-panel.js";
import { ChangesPanel } from "./changes-panel.js";
import { ContextPanel } from "./context-panel.js";
import { Overview } from "./overview-panel.js";
import type { AgentStopTarget } from "./use-agents.js";
import type { PageView } from "./view/types.js";

export type PanelTab = "overview" | "changes" | "agents" | "context";

const TABS: Array<[PanelTab, string]> = [
  ["overview", "Overview"],
  ["changes", "Changes"],
  ["agents", "Agents"],
  ["context", "Context"],
];

export interface SidePanelProps {
  readonly sessionId: string;
  readonly view: PageView;
  /** The badge now (re-read after a rewind). */
  readonly badge: Badge | undefined;
  readonly running: boolean;
  readonly agents: SessionAgentsReport | undefined;
  readonly stopAgent: (target: AgentStopTarget) => void;
  readonly tab: PanelTab;
  readonly setTab: (tab: PanelTab) => void;
  readonly changesFrom: string | undefined;
  readonly setChangesFrom: (checkpointId: string | undefined) => void;
  readonly agent: string | undefined;
  readonly setAgent: (agentId: string | undefined) => void;
  readonly send: (command: EngineCommand) => void;
  readonly rewind: (messageId: string, restore: RewindRestore) => void;
  /** Shown (on narrow screens the panel is a sheet the header opens). */
  readonly open: boolean;
  readonly close: () => void;
}

export function SidePanel(props: SidePanelProps) {
  const { tab, view } = props;
  const tabs = useRef<HTMLDivElement>(null);
  const counts: Partial<Record<PanelTab, number>> = {
    agents:
      Object.keys(view.agents).length + view.jobs.filter((j) => j.status === "running").length,
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    const at = TABS.findIndex(([t]) => t === tab);
    const next = TABS[(at + (e.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length];
    if (next) {
      props.setTab(next[0]);
      tabs.current?.querySelector<HTMLButtonElement>(`#tab-${next[0]}`)?.focus();
    }
  };
  return (
    <aside className={`side${props.open ? " open" : ""}`} aria-label="Session details">
      <div className="tabs" role="tablist" aria-label="Panels" ref={tabs} onKeyDown={onKey}>
        {TABS.map(([id, label]) => (
          <button
            key={id}
            id={`tab-${id}`}
            type="button"
            role="tab"
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => props.setTab(id)}
          >
            {label}
            {counts[id] ? <span className="count">{counts[id]}</span> : null}
          </button>
        ))}
        <IconButton
          icon="close"
          label="Close the panel"
          className="close-sheet"
          onClick={props.close}
        />
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tabpanel">
        {tab === "overview" ? (
          <Overview
            sessionId={props.sessionId}
            view={view}
            badge={props.badge}
            agents={props.agents}
            running={props.running}
            reviewFrom={(id) => {
              props.setChangesFrom(id);
              props.setTab("changes");
            }}
            rewind={props.rewind}
          />
        ) : null}
        {tab === "changes" ? (
          <ChangesPanel
            sessionId={props.sessionId}
            view={view}
            running={props.running}
            from={props.changesFrom}
            setFrom={props.setChangesFrom}
          />
        ) : null}
        {tab === "agents" ? (
          <AgentsPanel
            sessionId={props.sessionId}
            view={view}
            agents={props.agents}
            selected={props.agent}
            select={props.setAgent}
            send={props.send}
            stop={props.stopAgent}
          />
        ) : null}
        {tab === "context" ? <ContextPanel sessionId={props.sessionId} view={view} /> : null}
      </div>
    </aside>
  );
}
