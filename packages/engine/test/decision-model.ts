import type { ModelClient, ModelEvent, ModelRequest } from "@z-engine/protocol";

/** How the scripted decision model behaves. */
export type DecisionModelKind = "eager" | "failing" | "stalling";

/** The answer an eager decision model gives to each use's question, by its instructions. */
function eagerAnswer(request: ModelRequest): string {
  const system = request.system.map((s) => s.text).join("\n");
  const question = request.messages
    .flatMap((m) => m.content)
    .map((b) => (b.type === "text" ? b.text : ""))
    .join("");
  if (system.includes("claimsSuccess")) return '{"claimsSuccess": true, "hasEvidence": false}';
  if (system.includes("verifiable result")) {
    const claim = question.match(/All tests pass\./)?.[0];
    return JSON.stringify({ claim: claim ?? null, kind: "tests" });
  }
  // Advice to skip every check: the most a model can push (the use keeps one).
  if (system.includes("cannot cover")) {
    const ids = question.split("Checks:\n")[1]?.split("\n") ?? [];
    return JSON.stringify({ skip: ids });
  }
  if (system.includes("How urgent")) return '{"level": "high", "reason": "a delete waits"}';
  if (system.includes("one short factual note")) return '{"note": "nothing failed"}';
  if (system.includes("reasoning effort")) return '{"effort": "low", "reason": "small task"}';
  if (system.includes("tone")) return '{"tone": "frustrated"}';
  return "Scripted title";
}

/**
 * The fast model as the decision sidecar sees it, for the rule tests: `eager` gives advice
 * to every question (the most a model can push), `failing` fails every request, `stalling`
 * never answers until aborted. The only fake: everything else in the tests is real.
 */
export function decisionModel(kind: DecisionModelKind): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async *stream(request, options = {}): AsyncIterable<ModelEvent> {
      requests.push(request);
      if (kind === "failing") {
        yield { type: "error", error: { kind: "server", message: "decision model down" } };
        return;
      }
      if (kind === "stalling") {
        const signal = options.signal;
        await new Promise<void>((resolve) => {
          if (!signal) return;
          if (signal.aborted) resolve();
          signal.addEventListener("abort", () => resolve(), { once: true });
        });
        yield { type: "error", error: { kind: "cancelled", message: "aborted" } };
        return;
      }
      yield { type: "textDelta", text: eagerAnswer(request) };
      yield { type: "stop", reason: "endTurn" };
    },
  };
}
