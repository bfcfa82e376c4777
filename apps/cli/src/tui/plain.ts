import { createInterface } from "node:readline";
import type { Engine } from "@z-engine/engine";
import { badgeLabel, formatCost, formatEvent, formatTokens } from "@z-engine/engine";
import type { EngineCommand, EventEnvelope } from "@z-engine/protocol";
import type { InteractiveArgs } from "../args.js";
import type { Io } from "../output/result.js";
import { approvalChoices, PLAN_CHOICES, questionChoices, TRUST_CHOICES } from "./cards.js";
import type { Opened } from "./opened.js";
import type { Approval } from "./view.js";

/** Without a terminal, `--resume` without an id takes the project's newest session. */
export async function pickFirst(engine: Engine, root: string): Promise<string | undefined> {
  return (await engine.latestSession(root))?.id;
}

/** An open card waiting for its answer line, and how a line answers it. */
interface Waiting {
  readonly lines: string[];
  readonly answer: (line: string) => EngineCommand | undefined;
}

function numbered(labels: string[]): string[] {
  return labels.map((l, i) => `  ${i + 1}. ${l}`);
}

function pick<T>(line: string, values: T[]): T | undefined {
  const n = Number(line.trim());
  return Number.isInteger(n) ? values[n - 1] : undefined;
}

function approvalCard(a: Approval): Waiting {
  const choices = approvalChoices(a);
  return {
    lines: [
      `? ${a.title}: ${a.reason}`,
      ...numbered(choices.map((c) => c.label)),
      "answer 1-4 (4 text: deny with feedback)",
    ],
    answer: (line) => {
      const [n, ...rest] = line.trim().split(" ");
      const choice = pick(n ?? "", choices);
      if (!choice) return undefined;
      const feedback = rest.join(" ").trim();
      const decision =
        choice.value.type === "deny" && feedback
          ? { type: "deny" as const, feedback }
          : choice.value;
      return { type: "resolveApproval", approvalId: a.approvalId, decision };
    },
  };
}

function trustCard(root: string, withheld: readonly string[]): Waiting {
  return {
    lines: [
      `? trust ${root} (it sets ${withheld.join(", ")})`,
      ...numbered(TRUST_CHOICES.map((c) => c.label)),
    ],
    answer: (line) => ({
      type: "trustWorkspace",
      trusted: pick(line, TRUST_CHOICES)?.value === true,
    }),
  };
}

function cardFor(envelope: EventEnvelope): Waiting | undefined {
  const { event } = envelope;
  if (event.type === "approvalRequested")
    return approvalCard({ ...event, ...(envelope.agentId ? { agentId: envelope.agentId } : {}) });
  if (event.type === "trustRequired") return trustCard(event.projectRoot, event.withheld);
  if (event.type === "planProposed")
    return {
      lines: [event.plan.plan, ...numbered(PLAN_CHOICES.map((c) => c.label))],
      answer: (line) => {
        const mode = pick(line, PLAN_CHOICES)?.value;
        if (mode === undefined)
          return { type: "resolvePlan", planId: event.plan.id, approved: false, feedback: line };
        return {
          type: "resolvePlan",
          planId: event.plan.id,
          approved: mode !== null,
          ...(mode ? { mode } : {}),
        };
      },
    };
  if (event.type === "questionAsked") {
    const q = event.question;
    const labels = q.questions.map((_, i) => questionChoices(q, i));
    return {
      lines: q.questions.flatMap((x, i) => [
        `? ${x.question}`,
        ...numbered((labels[i] ?? []).map((c) => c.label)),
      ]),
      answer: (line) => {
        const parts = line.split(";").map((p) => p.trim());
        const answers: Record<string, string> = {};
        q.questions.forEach((x, i) => {
          const part = parts[i] ?? "";
          answers[x.question] = pick(part, labels[i] ?? [])?.value ?? part;
        });
        return { type: "answerQuestion", questionId: q.id, answers };
      },
    };
  }
  return undefined;
}

function describe(envelope: EventEnvelope): string | undefined {
  const { event } = envelope;
  if (event.type === "turnFinished")
    return `── ${event.outcome} · ${badgeLabel(event.badge)} (${event.badge.reason}) · ${formatTokens(event.usage)} · ${formatCost(event.usage.costUsd)}`;
  if (event.type === "assistantFinished") return "";
  if (event.type === "modeChanged") return `mode: ${event.mode}`;
  if (event.type === "commandOutput") return event.markdown;
  if (event.type === "approvalRequested" || event.type === "trustRequired") return undefined;
  return formatEvent(event);
}

/**
 * Plain lines for a non-terminal stdout or stdin: events as the text output prints them,
 * prompts read line by line from stdin (each waits for the turn before it), and a card
 * answered by the next line (its number; `4 text` denies with feedback). Ends at the end of
 * stdin, after the last turn.
 */
export async function runPlain(opened: Opened, args: InteractiveArgs, io: Io): Promise<number> {
  const { engine } = opened;
  const session = opened.slot.session;
  const waiting: Waiting[] = [];
  let streamed = false;
  const onEvent = (envelope: EventEnvelope) => {
    if (envelope.event.type === "textDelta" && !envelope.agentId) {
      io.stdout(envelope.event.text);
      streamed = true;
      return;
    }
    const card = cardFor(envelope);
    if (card) {
      waiting.push(card);
      io.stdout(`${card.lines.join("\n")}\n`);
      return;
    }
    const line = describe(envelope);
    if (line === undefined) return;
    if (line === "") {
      if (streamed) io.stdout("\n");
      streamed = false;
      return;
    }
    io.stdout(`${line}\n`);
  };
  const events = (async () => {
    for await (const envelope of session.events()) onEvent(envelope);
  })();
  // The trust prompt came while the session opened, before this subscription.
  const trust = opened.store.getSnapshot().trust;
  if (trust) waiting.push(trustCard(trust.projectRoot, trust.withheld));
  for (const card of waiting) io.stdout(`${card.lines.join("\n")}\n`);
  const lines = createInterface({ input: process.stdin, terminal: false });
  let pending: Promise<unknown> = Promise.resolve();
  if (args.prompt) pending = session.run(args.prompt);
  for await (const line of lines) {
    const card = waiting.shift();
    if (card) {
      const command = card.answer(line);
      if (command) session.send(command);
      else {
        waiting.unshift(card);
        io.stdout("answer with the number of a choice\n");
      }
      continue;
    }
    if (line.trim() === "") continue;
    pending = pending.then(() => session.run(line));
  }
  await pending;
  await engine.shutdown();
  await opened.flushTelemetry();
  await events;
  return 0;
}
