import type { CommandHost } from "./host.js";
import { rememberNote } from "./remember.js";
import { cardsOf, openSuggestions } from "../decisions/suggestions.js";

/**
 * The user's answer to a card (`resolveSuggestion`, `/suggestion`): dismissing closes it;
 * accepting does what it offered, as the user's own act through the usual paths: `plan`
 * switches to plan mode, `memory` runs `/remember` with its rule (the Write gate decides),
 * `review` queues its review prompt as a turn. Emits `suggestionResolved`, then resolves
 * with a line saying what happened; an unknown id resolves with undefined. Never rejects.
 */
export async function resolveSuggestion(
  host: CommandHost,
  suggestionId: string,
  accepted: boolean,
): Promise<string | undefined> {
  const cards = cardsOf(host);
  const card = cards.open.get(suggestionId);
  if (!card) return undefined;
  cards.open.delete(suggestionId);
  if (!accepted) cards.dismissed.add(card.kind);
  host.journal.emit(
    { type: "suggestionResolved", suggestionId, accepted },
    card.turnId ? { turnId: card.turnId } : {},
  );
  if (!accepted) return `Dismissed: ${card.text}`;
  try {
    switch (card.kind) {
      case "plan":
        await host.setMode("plan");
        return "Plan mode is on.";
      case "memory":
        return await rememberNote(host, card.detail ?? card.text);
      case "review":
        host.queuePrompt(card.detail ?? card.text);
        return "The review turn is queued.";
    }
  } catch (error) {
    return `The suggestion could not be carried out: ${(error as Error).message}`;
  }
}

/**
 * `/suggestion [accept|dismiss <id>]`: lists the open cards, or answers one (as
 * `resolveSuggestion` does), for hosts without cards (the terminal UI, headless runs).
 */
export async function suggestionCommand(host: CommandHost, args: string): Promise<string> {
  const [verb = "", id = ""] = args.trim().split(/\s+/);
  if (verb === "") {
    const open = openSuggestions(host);
    if (open.length === 0) return "No open suggestions.";
    return ["**Suggestions**", "", ...open.map((s) => `- \`${s.id}\` (${s.kind}): ${s.text}`)].join(
      "\n",
    );
  }
  if ((verb !== "accept" && verb !== "dismiss") || id === "")
    return "Usage: `/suggestion [accept|dismiss <id>]`";
  const said = await resolveSuggestion(host, id, verb === "accept");
  return said ?? `No open suggestion has the id ${id}.`;
}
