import { randomUUID } from "node:crypto";
import type { Suggestion, SuggestionKind, TurnId } from "@z-engine/protocol";
import type { SuggestionAdvice } from "./seams.js";
import type { DecisionHost } from "./session-hub.js";

/** A session's open cards, and the kinds the user dismissed (plan and review stop for the chat). */
export interface Cards {
  readonly open: Map<string, Suggestion>;
  readonly dismissed: Set<SuggestionKind>;
}

const sessions = new WeakMap<object, Cards>();

/** The cards of a session (the session core, or the command host over it), made on first use. */
export function cardsOf(core: object): Cards {
  let cards = sessions.get(core);
  if (!cards) {
    cards = { open: new Map(), dismissed: new Set() };
    sessions.set(core, cards);
  }
  return cards;
}

/**
 * Offers `advice` as a card (`suggested`, live only) unless the user dismissed a plan or
 * review card in this chat, or the same card is open. Nothing else happens until the user
 * accepts it. Never throws.
 */
export function offerSuggestion(
  core: DecisionHost,
  advice: SuggestionAdvice,
  turnId?: TurnId,
): void {
  const cards = cardsOf(core);
  if (advice.kind !== "memory" && cards.dismissed.has(advice.kind)) return;
  for (const open of cards.open.values())
    if (open.kind === advice.kind && open.text === advice.text) return;
  const suggestion: Suggestion = {
    id: `sg-${randomUUID().slice(0, 8)}`,
    kind: advice.kind,
    text: advice.text,
    ...(advice.detail ? { detail: advice.detail } : {}),
    ...(turnId ? { turnId } : {}),
  };
  cards.open.set(suggestion.id, suggestion);
  core.journal.emit({ type: "suggested", suggestion }, turnId ? { turnId } : {});
}

/** The cards still open in a session, oldest first (`/suggestion` lists them). */
export function openSuggestions(core: object): readonly Suggestion[] {
  return [...cardsOf(core).open.values()];
}
