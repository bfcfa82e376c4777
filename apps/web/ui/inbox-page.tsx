// The Inbox: every approval, question and plan waiting in any session open here, answerable
// from one place.
import type { EngineCommand } from "@z-engine/protocol";
import { useState } from "react";
import { api, type InboxItem, type ProjectEntry } from "./api.js";
import { ApprovalCard, PlanCard, QuestionCard } from "./cards.js";
import { baseName } from "./format.js";

interface Props {
  readonly items: InboxItem[] | undefined;
  readonly projects: ProjectEntry[] | undefined;
  readonly openSession: (id: string) => void;
  readonly changed: () => void;
}

export function InboxPage({ items, projects, openSession, changed }: Props) {
  const [error, setError] = useState<string>();
  const sessionOf = (id: string) => projects?.flatMap((p) => p.sessions).find((s) => s.id === id);
  const sendTo = (sessionId: string) => (command: EngineCommand) =>
    api.send(sessionId, command).then(
      () => {
        setError(undefined);
        changed();
      },
      (e: Error) => setError(e.message),
    );
  return (
    <main className="page inbox" data-testid="inbox">
      <h1>Inbox</h1>
      <p className="muted">Approvals, questions and plans waiting in the sessions open here.</p>
      {error ? <p role="alert">{error}</p> : null}
      {items === undefined ? <p>Loading…</p> : null}
      {items?.length === 0 ? <p className="muted">Nothing is waiting on you.</p> : null}
      {items?.map((item) => {
        const session = sessionOf(item.sessionId);
        const send = sendTo(item.sessionId);
        return (
          <section
            key={`${item.sessionId}-${item.id}`}
            className="inbox-item"
            data-testid="inbox-item"
            aria-label={`Waiting in ${session?.title ?? item.sessionId}`}
          >
            <div className="inbox-from">
              <button type="button" className="link" onClick={() => openSession(item.sessionId)}>
                {session?.title ?? "Untitled session"}
              </button>{" "}
              <span className="muted">
                {session?.projectRoot ? baseName(session.projectRoot) : ""} ·{" "}
                {new Date(item.at).toLocaleTimeString()}
                {item.agentId ? ` · asked by agent ${item.agentId}` : ""}
              </span>
            </div>
            {item.kind === "approval" ? (
              <ApprovalCard
                approval={item.approval}
                send={send}
                agentLabel={item.agentId ? `agent ${item.agentId}` : undefined}
              />
            ) : null}
            {item.kind === "question" ? (
              <QuestionCard question={item.question} send={send} />
            ) : null}
            {item.kind === "plan" ? <PlanCard plan={item.plan} send={send} /> : null}
          </section>
        );
      })}
    </main>
  );
}
