import type { ReminderQueue } from "@z-engine/context";
import type { Action, Decision } from "@z-engine/policy";
import type { Message, TurnId } from "@z-engine/protocol";
import { type FileTracker, stampOf } from "@z-engine/tools";
import type { FileLook, FileLooker, SeamAdvice } from "./seams.js";
import { type DecisionHost, decisionsOf } from "./session-hub.js";

/**
 * The tool gate's rule (architecture.md "Tool batch" step 3): advice may turn an Allow into
 * an Ask, with no rule to suggest or persist; a Deny or an Ask is returned as it is.
 */
export function escalateAllow(
  decision: Decision,
  advice: readonly SeamAdvice<"toolGate">[],
): Decision {
  const first = advice[0];
  if (decision.type !== "allow" || !first) return decision;
  return { type: "ask", reason: first.askReason, suggestedRules: [] };
}

/** What the after-call seam reads for a use and records of what it read ahead. */
export interface AfterCallReads {
  /** Reads a file the session's Read rules allow without asking. */
  readonly look: FileLooker;
  /** The agent's read-before-edit memory (a file read ahead whole is recorded as read). */
  readonly files: FileTracker;
  /** The request the agent works on. */
  readonly prompt: string;
  /** False when the tools read through a host's editor: a disk read is then not the agent's read. */
  readonly markRead: boolean;
}

/** The text of the latest user message with text and no tool results: the request worked on. */
export function requestOf(messages: readonly Message[]): string {
  const user = messages.findLast(
    (m) =>
      m.role === "user" &&
      m.content.some((b) => b.type === "text") &&
      !m.content.some((b) => b.type === "toolResult"),
  );
  return (user?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

/** The reminder that carries a file read ahead. */
export function prefetchReminder(look: FileLook): string {
  const lines = look.text.replace(/\n$/, "").split("\n").length;
  const tail = look.cut ? "\n[... cut: the file is longer; Read it for the rest]" : "";
  return `Prefetched (you need not Read them again): ${look.path} lines 1-${lines}\n${look.text}${tail}`;
}

/**
 * The after-call seam, once a call finished and was not cancelled: the uses' notes and the
 * files they read ahead join the next request as reminders (after the results). A file read
 * ahead whole, unchanged while read, counts as read for the Edit tool's read-before-edit
 * check (not with a host's editor). Never rejects.
 */
export async function noteAfterCall(
  core: DecisionHost,
  call: { readonly id: string; readonly toolName: string; readonly input: unknown },
  result: { readonly text: string; readonly isError: boolean },
  scope: { readonly signal: AbortSignal; readonly turnId: TurnId },
  reminders: Pick<ReminderQueue, "add">,
  readsOf?: () => AfterCallReads,
): Promise<void> {
  const hub = decisionsOf(core);
  if (!hub.joins("afterCall")) return;
  const reads = readsOf?.();
  const seen = async (realPath: string) =>
    reads?.files.checkEditable(realPath, await stampOf(realPath)).ok ?? false;
  const extra = reads ? { prompt: reads.prompt, look: reads.look, seen } : {};
  const input = { toolName: call.toolName, input: call.input, ...result, ...extra };
  const advice = await hub.consult("afterCall", input, scope);
  for (const [i, note] of advice.flatMap((a) => a.notes).entries())
    reminders.add({
      key: `note:${call.id}:${i}`,
      text: `Note on the ${call.toolName} result: ${note}`,
    });
  for (const look of advice.flatMap((a) => a.prefetched ?? [])) {
    reminders.add({ key: `prefetch:${call.id}:${look.realPath}`, text: prefetchReminder(look) });
    if (reads?.markRead && look.stamp) reads.files.record(look.realPath, look.stamp);
  }
}

/**
 * The tool-gate seam, between the decision (policy plus hooks) and the approval. Only an
 * Allow reaches the uses; with no running use it returns at once. Never rejects.
 */
export async function reviewAtGate(
  core: DecisionHost,
  call: { readonly toolName: string; readonly input: unknown; readonly actions: readonly Action[] },
  decision: Decision,
  signal: AbortSignal,
): Promise<Decision> {
  if (decision.type !== "allow") return decision;
  const hub = decisionsOf(core);
  if (!hub.joins("toolGate")) return decision;
  return escalateAllow(decision, await hub.consult("toolGate", call, { signal }));
}
