import type { Message, ToolCallId, TurnId } from "@z-engine/protocol";
import type { SessionCore } from "../core/session-core.js";
import { findKnownKeys } from "../util/key-formats.js";
import type { FlaggedValue, NewResultText } from "./seams.js";
import { type DecisionHost, decisionsOf } from "./session-hub.js";

/** What a session remembers of screened results and the user's answers. */
interface ScreenState {
  readonly screened: Set<string>;
  /** Withheld value -> its placeholder. */
  readonly withheld: Map<string, string>;
  /** Values the user let through. */
  readonly sent: Set<string>;
}

/** What screening needs of a session: the decision layer, and the approvals to ask through. */
type ScreenHost = DecisionHost & Pick<SessionCore, "approvals">;

const states = new WeakMap<ScreenHost, ScreenState>();
/** Values shorter than this are never flagged (they would mangle ordinary text). */
const MIN_VALUE = 8;

function stateOf(core: ScreenHost): ScreenState {
  const known = states.get(core);
  if (known) return known;
  const fresh: ScreenState = { screened: new Set(), withheld: new Map(), sent: new Set() };
  states.set(core, fresh);
  return fresh;
}

/**
 * Tool results of `messages` not screened yet, as text. Results only ever join at the end,
 * so the walk goes backwards and stops at the first message holding a screened result.
 */
function newResults(messages: readonly Message[], screened: Set<string>): NewResultText[] {
  const fresh: { toolUseId: string; text: string }[] = [];
  const names = new Map<string, string>();
  let i = messages.length - 1;
  for (; i >= 0; i--) {
    const content = (messages[i] as Message).content;
    if (content.some((b) => b.type === "toolResult" && screened.has(b.toolUseId))) break;
    for (const b of content) {
      if (b.type === "toolUse") names.set(b.id, b.name);
      if (b.type !== "toolResult") continue;
      const text = b.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      fresh.push({ toolUseId: b.toolUseId, text });
    }
  }
  // The calls of results found last may sit before the stop point.
  for (; i >= 0 && names.size < fresh.length; i--)
    for (const b of (messages[i] as Message).content)
      if (b.type === "toolUse") names.set(b.id, b.name);
  return fresh.reverse().map((r) => ({ ...r, toolName: names.get(r.toolUseId) ?? "tool" }));
}

/**
 * Forgets the screened ids no longer in `messages` (compacted away): the walk of
 * {@link newResults} only meets ids of the working set, and a set of every id ever screened
 * would grow with the session, round after round (the soak's heap slope).
 */
function forgetGone(screened: Set<string>, messages: readonly Message[]): void {
  const live = new Set<string>();
  for (const m of messages)
    for (const b of m.content)
      if (b.type === "toolResult" && screened.has(b.toolUseId)) live.add(b.toolUseId);
  if (live.size === screened.size) return;
  for (const id of screened) if (!live.has(id)) screened.delete(id);
}

/** How many tool result ids the session remembers as screened (for tests). */
export const screenedCount = (core: ScreenHost): number => stateOf(core).screened.size;

/** The always-on detector, then the uses of the seam; only values really in the results count. */
async function flag(
  core: DecisionHost,
  results: readonly NewResultText[],
  scope: { signal: AbortSignal; turnId: TurnId },
): Promise<FlaggedValue[]> {
  const flagged = new Map<string, FlaggedValue>();
  for (const r of results)
    for (const k of findKnownKeys(r.text)) flagged.set(k.value, { value: k.value, why: k.format });
  const hub = decisionsOf(core);
  if (hub.joins("beforeRequest"))
    for (const advice of await hub.consult("beforeRequest", { results }, scope))
      for (const f of advice.flagged)
        if (
          f.value.length >= MIN_VALUE &&
          !flagged.has(f.value) &&
          results.some((r) => r.text.includes(f.value))
        )
          flagged.set(f.value, f);
  return [...flagged.values()];
}

/** `value` with each withheld value replaced by its placeholder, in every string. */
function replaceDeep<T>(value: T, withheld: ReadonlyMap<string, string>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      let s = v;
      for (const [secret, placeholder] of withheld)
        if (s.includes(secret)) s = s.split(secret).join(placeholder);
      return s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

const masked = (v: string) => `${v.slice(0, 4)}…(${v.length} characters)`;

async function askOnce(
  core: Pick<SessionCore, "approvals">,
  results: readonly NewResultText[],
  open: readonly FlaggedValue[],
  scope: { signal: AbortSignal; turnId: TurnId },
  state: ScreenState,
): Promise<void> {
  const holder = results.find((r) => open.some((f) => r.text.includes(f.value))) ?? results[0];
  if (!holder) return;
  const n = open.length;
  const [answer] = await core.approvals.requestAll(
    [
      {
        toolCallId: holder.toolUseId as ToolCallId,
        toolName: holder.toolName,
        title: `Send ${n} likely credential${n === 1 ? "" : "s"} in tool results to the model?`,
        reason: `Looks like a credential: ${open.map((f) => `${masked(f.value)} (${f.why})`).join("; ")}. Deny to send placeholders instead.`,
        suggestedRules: [],
      },
    ],
    scope.turnId,
    scope.signal,
  );
  const send = answer !== undefined && answer.decision.type !== "deny";
  for (const f of open) {
    if (send) state.sent.add(f.value);
    else state.withheld.set(f.value, `[withheld credential ${state.withheld.size + 1}]`);
  }
}

/**
 * The before-request seam (architecture.md "One round" step 3): new tool results are
 * screened by the always-on detector of known key formats and by the uses (screen_request);
 * likely credentials are asked about once, together, before they are sent. Denied (or
 * unanswerable, headless) values become placeholders in this and every later request.
 * Returns the messages to send. Rejects only when the log cannot be written.
 */
export async function screenedMessages(
  core: ScreenHost,
  turn: { readonly signal: AbortSignal; readonly turnId: TurnId },
  messages: Message[],
): Promise<Message[]> {
  const state = stateOf(core);
  const results = newResults(messages, state.screened);
  if (results.length > 0) {
    for (const r of results) state.screened.add(r.toolUseId);
    forgetGone(state.screened, messages);
    const scope = { signal: turn.signal, turnId: turn.turnId };
    const open = (await flag(core, results, scope)).filter(
      (f) => !state.withheld.has(f.value) && !state.sent.has(f.value),
    );
    if (open.length > 0) await askOnce(core, results, open, scope, state);
  }
  return state.withheld.size > 0 ? replaceDeep(messages, state.withheld) : messages;
}
