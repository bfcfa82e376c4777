// What waits on the user: approvals (each answerable on its own, in any order), questions,
// plan reviews, and the trust banner.
import type { EngineCommand, Plan, Question } from "@z-engine/protocol";
import { useState } from "react";
import { Markdown } from "./markdown.js";
import { DisplayView } from "./rows.js";
import type { PendingApproval } from "./view/types.js";

type Send = (command: EngineCommand) => void;

export function ApprovalCard({
  approval,
  send,
  agentLabel,
}: {
  approval: PendingApproval;
  send: Send;
  /** Which subagent asked ("agent reviewer · agent_1"), when one did. */
  agentLabel?: string | undefined;
}) {
  const [rule, setRule] = useState(approval.suggestedRules[0] ?? `${approval.toolName}`);
  const [feedback, setFeedback] = useState("");
  const answer = (decision: Extract<EngineCommand, { type: "resolveApproval" }>["decision"]) =>
    send({ type: "resolveApproval", approvalId: approval.approvalId, decision });
  return (
    <section
      className="card approval"
      aria-label={`Approve ${approval.title}`}
      data-testid="approval"
    >
      <h3>{approval.title}</h3>
      {agentLabel ? (
        <p className="asked-by" data-testid="asked-by">
          Asked by {agentLabel}
        </p>
      ) : null}
      <p className="muted">{approval.reason}</p>
      {approval.preview ? <DisplayView display={approval.preview} /> : null}
      <div className="actions">
        <button type="button" onClick={() => answer({ type: "allowOnce" })}>
          Allow once
        </button>
        <label>
          Rule{" "}
          <input
            value={rule}
            onChange={(e) => setRule(e.target.value)}
            aria-label="Rule to allow"
          />
        </label>
        <button
          type="button"
          disabled={!rule}
          onClick={() => answer({ type: "allowSession", rule })}
        >
          Always in this chat
        </button>
        <button
          type="button"
          disabled={!rule}
          onClick={() => answer({ type: "allowProject", rule })}
        >
          Always in this project
        </button>
      </div>
      <div className="actions deny">
        <textarea
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
          placeholder="Tell the model why, or what to do instead (optional)"
          aria-label="Feedback with deny"
          rows={2}
        />
        <button
          type="button"
          className="danger"
          onClick={() => answer({ type: "deny", ...(feedback ? { feedback } : {}) })}
        >
          Deny
        </button>
      </div>
    </section>
  );
}

export function QuestionCard({ question, send }: { question: Question; send: Send }) {
  const [chosen, setChosen] = useState<Record<string, string[]>>({});
  const toggle = (q: string, label: string, multi: boolean) =>
    setChosen((c) => {
      const now = c[q] ?? [];
      const next = multi
        ? now.includes(label)
          ? now.filter((l) => l !== label)
          : [...now, label]
        : [label];
      return { ...c, [q]: next };
    });
  const complete = question.questions.every((q) => (chosen[q.question] ?? []).length > 0);
  return (
    <section className="card question" aria-label="Question" data-testid="question">
      {question.questions.map((q) => (
        <fieldset key={q.question}>
          <legend>
            {q.header ? <strong>{q.header}: </strong> : null}
            {q.question}
          </legend>
          {q.options.map((o) => (
            <label key={o.label} className="option">
              <input
                type={q.multiSelect ? "checkbox" : "radio"}
                name={`${question.id}-${q.question}`}
                checked={(chosen[q.question] ?? []).includes(o.label)}
                onChange={() => toggle(q.question, o.label, q.multiSelect)}
              />{" "}
              {o.label}
              {o.description ? <span className="muted"> — {o.description}</span> : null}
            </label>
          ))}
        </fieldset>
      ))}
      <button
        type="button"
        disabled={!complete}
        onClick={() =>
          send({
            type: "answerQuestion",
            questionId: question.id,
            answers: Object.fromEntries(Object.entries(chosen).map(([k, v]) => [k, v.join(", ")])),
          })
        }
      >
        Answer
      </button>
    </section>
  );
}

export function PlanCard({ plan, send }: { plan: Plan; send: Send }) {
  const [feedback, setFeedback] = useState("");
  const [mode, setMode] = useState<"ask" | "acceptEdits">("ask");
  return (
    <section className="card plan" aria-label="Plan review" data-testid="plan">
      <h3>Plan for review</h3>
      <Markdown text={plan.plan} />
      <div className="actions">
        <label>
          Then{" "}
          <select value={mode} onChange={(e) => setMode(e.target.value as "ask")}>
            <option value="ask">ask before edits</option>
            <option value="acceptEdits">accept edits</option>
          </select>
        </label>
        <button
          type="button"
          onClick={() => send({ type: "resolvePlan", planId: plan.id, approved: true, mode })}
        >
          Approve plan
        </button>
        <input
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
          placeholder="What to change"
          aria-label="Plan feedback"
        />
        <button
          type="button"
          className="danger"
          onClick={() =>
            send({
              type: "resolvePlan",
              planId: plan.id,
              approved: false,
              ...(feedback ? { feedback } : {}),
            })
          }
        >
          Keep planning
        </button>
      </div>
    </section>
  );
}

export function TrustBanner({
  trust,
  send,
  dismiss,
}: {
  trust: { projectRoot: string; withheld: string[] };
  send: Send;
  dismiss: () => void;
}) {
  return (
    <section className="banner trust" role="alert" data-testid="trust-banner">
      <strong>Do you trust {trust.projectRoot}?</strong> Until you do, its project settings are
      withheld: <span data-testid="withheld">{trust.withheld.join(", ")}</span>.
      <div className="actions">
        <button type="button" onClick={() => send({ type: "trustWorkspace", trusted: true })}>
          Trust this folder
        </button>
        <button
          type="button"
          onClick={() => {
            send({ type: "trustWorkspace", trusted: false });
            dismiss();
          }}
        >
          Not now
        </button>
      </div>
    </section>
  );
}
