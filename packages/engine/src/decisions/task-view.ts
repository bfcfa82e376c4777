import { type Message, type MessageId, newMessageId, type TurnId } from "@z-engine/protocol";
import type { SessionCore } from "../core/session-core.js";
import type { ExchangeDigest } from "./seams.js";
import type { DecisionHost } from "./session-hub.js";

/** The newest exchanges a task view always keeps (besides the new request). */
export const KEEP_RECENT_EXCHANGES = 2;
/** A task view acts only on a history of at least this many characters. */
export const MIN_VIEW_CHARS = 4_000;
/** The first words of every index message (a later view drops the old index, keeping its list). */
const INDEX_HEAD = "[Task view]";

/** One exchange: a user's request and everything up to the next one (a call never leaves its result). */
export interface Exchange {
  readonly messages: readonly Message[];
  /** The request's text (its start), for the decision model. */
  readonly prompt: string;
  readonly chars: number;
}

const textOf = (m: Message) =>
  m.content.map((b) => (b.type === "text" ? b.text : JSON.stringify(b))).join("\n");

const isRequest = (m: Message) =>
  m.role === "user" &&
  m.content.some((b) => b.type === "text") &&
  !m.content.some((b) => b.type === "toolResult");

const isIndex = (m: Message) =>
  m.role === "user" && m.content[0]?.type === "text" && m.content[0].text.startsWith(INDEX_HEAD);

/** The working set cut into whole exchanges (an earlier view's index message left out). */
export function exchangesOf(messages: readonly Message[]): Exchange[] {
  const out: Message[][] = [];
  for (const m of messages) {
    if (isIndex(m)) continue;
    if (isRequest(m) || out.length === 0) out.push([m]);
    else out.at(-1)?.push(m);
  }
  return out.map((ms) => ({
    messages: ms,
    prompt: textOf(ms[0] as Message).slice(0, 300),
    chars: ms.reduce((n, m) => n + textOf(m).length, 0),
  }));
}

/**
 * The exchanges a task-view use is offered at turn start: all but the newest
 * {@link KEEP_RECENT_EXCHANGES} (hard keeps), and none when the history is short.
 */
export function viewCandidates(messages: readonly Message[]): readonly ExchangeDigest[] {
  const all = exchangesOf(messages);
  if (all.reduce((n, e) => n + e.chars, 0) < MIN_VIEW_CHARS) return [];
  return all
    .slice(0, Math.max(0, all.length - KEEP_RECENT_EXCHANGES))
    .map((e, index) => ({ index, prompt: e.prompt, chars: e.chars }));
}

const planned = new WeakMap<object, readonly number[]>();

/** Remembers the exchanges an On task-view use set aside, to apply once the request is saved. */
export function planTaskView(turn: object, setAside: readonly number[]): void {
  if (setAside.length > 0) planned.set(turn, setAside);
}

type ViewCore = DecisionHost & Pick<SessionCore, "log" | "workingSet">;

/**
 * Applies the task view planned for `turn`, once the new request is in the log: the set-aside
 * exchanges are written whole to an artifact, and a `taskView` record (then
 * `taskViewApplied`) makes the working set an index message plus the kept messages, in order;
 * the transcript is untouched, and `includeFullHistory` brings everything back. Only the
 * offered exchanges can go (the newest ones and the new request always stay). Anything
 * unexpected (the history changed, the artifact cannot be stored) leaves the history whole.
 * Never rejects.
 */
export async function applyTaskView(
  core: ViewCore,
  turn: { readonly turnId: TurnId },
): Promise<void> {
  const setAside = planned.get(turn);
  if (!setAside) return;
  planned.delete(turn);
  const messages = core.workingSet();
  const all = exchangesOf(messages);
  // The new request is the last exchange now: the hard keeps are counted before it.
  const offered = Math.max(0, all.length - 1 - KEEP_RECENT_EXCHANGES);
  const aside = new Set(setAside.filter((i) => Number.isInteger(i) && i >= 0 && i < offered));
  if (aside.size === 0) return;
  const gone = all.filter((_, i) => aside.has(i));
  const oldIndex = messages.find(isIndex);
  try {
    const text = gone.map((e) => e.messages.map(textOf).join("\n\n")).join("\n\n---\n\n");
    const stored = await core.log.artifacts.put(`task-view-${turn.turnId}.txt`, text);
    const kept = all.filter((_, i) => !aside.has(i)).flatMap((e) => e.messages.map((m) => m.id));
    const earlier = oldIndex ? `\n${textOf(oldIndex).split("\n").slice(1).join("\n")}` : "";
    const list = gone.map((e) => `- ${e.prompt.split("\n")[0]?.slice(0, 120)}`).join("\n");
    const indexMessage: Message = {
      id: newMessageId(),
      role: "user",
      content: [
        {
          type: "text",
          text: `${INDEX_HEAD} Earlier exchanges about other tasks were set aside for this one; they are stored whole as ${stored.ref}. Ask the user, or read it, if one is needed:\n${list}${earlier}`,
        },
      ],
    };
    const view = {
      restored: false,
      setAside: gone.length,
      keptMessages: kept.length,
      artifact: stored.ref,
    };
    await core.journal.record(
      "taskView",
      { keptMessageIds: kept as MessageId[], indexMessage },
      { type: "taskViewApplied", view },
      { turnId: turn.turnId },
    );
  } catch {
    // The history stays whole.
  }
}

/**
 * `includeFullHistory`: brings back the full history until the next task view (a `taskView`
 * record with `restored`, then `taskViewApplied`). With no view in force the working set is
 * already whole, and the record changes nothing. Never rejects.
 */
export async function includeFullHistory(core: Pick<SessionCore, "journal">): Promise<void> {
  const view = { restored: true, setAside: 0, keptMessages: 0 };
  await core.journal
    .record("taskView", { restored: true }, { type: "taskViewApplied", view })
    .catch(() =>
      core.journal.notice("warning", "taskView.failed", "the full history could not be restored"),
    );
}
