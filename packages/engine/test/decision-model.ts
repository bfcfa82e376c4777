import type { ModelClient, ModelEvent, ModelRequest } from "@z-engine/protocol";

/** How the scripted decision model behaves. */
export type DecisionModelKind = "eager" | "failing" | "stalling";

/** The reminder an eager decision model gives at turn start. */
export const TURN_START_REMINDER = "Turn-start reminder: keep the change small.";

/**
 * ask_user's answer: each question gets the first of its options that the first document
 * excerpt names, with that excerpt's first line as the quote.
 */
function docAnswers(question: string): string {
  const [asked = "", docs = ""] = question.split("\n\nProject documents:\n");
  const excerpt = docs.match(/^\[(.+?)\]\n(.+)$/m);
  const answers = [...asked.matchAll(/^\d+\. (.+)\n {3}Options: (.+)$/gm)].map((m) => {
    const options = (m[2] ?? "").split(" | ");
    return {
      question: m[1],
      answer: options.find((o) => excerpt?.[2]?.includes(o)) ?? null,
      source: excerpt?.[1] ?? "",
      quote: excerpt?.[2] ?? "",
    };
  });
  return JSON.stringify({ answers });
}

/** The task view acts only on a request that says so (so a test can run a follow-up turn). */
export const NEW_TASK = "NEW TASK:";

/** The eager answers of the uses of issue 46 (undefined: not one of theirs). */
function eagerNewUses(system: string, question: string): string | undefined {
  if (system.includes("start another task")) {
    const numbers = [...question.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
    return JSON.stringify({ newTask: question.includes(NEW_TASK), notNeeded: numbers });
  }
  if (system.includes("Is the coding request below large")) return '{"large": true}';
  if (system.includes("standing rule")) {
    const rule = question.match(/always [^.]+/i)?.[0] ?? null;
    return JSON.stringify({ rule });
  }
  if (system.includes("careful review")) return '{"review": true}';
  if (system.includes("correct what the agent did"))
    return '{"correcting": true, "frustrated": true}';
  if (system.includes("skills listed below")) {
    const fits = [...question.matchAll(/^- ([^:]+):/gm)].map((m) => m[1]);
    return JSON.stringify({ fits });
  }
  if (system.includes("searched the code")) return '{"keep": [1, 2, 3]}';
  // session_context: every offered file and tool (the most it may name); prefetch: the first two.
  if (system.includes("most likely need to read")) {
    const block = (title: string) =>
      (question.split(`${title}:\n`)[1]?.split("\n\n")[0] ?? "").split("\n").filter(Boolean);
    const files = block("Project files").slice(0, 20);
    const tools = block("MCP tools")
      .map((l) => l.replace(/^- /, "").split(":")[0])
      .slice(0, 20);
    return JSON.stringify({ files, tools });
  }
  if (system.includes("most likely read next")) {
    const listed = (question.split("listed:\n")[1] ?? "").split("\n").filter(Boolean);
    return JSON.stringify({ files: listed.slice(0, 2) });
  }
  // custom_rules: every offered rule matches.
  if (system.includes("The user wrote the numbered rules")) {
    const matches = [...question.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
    return JSON.stringify({ matches });
  }
  return undefined;
}

/** The answer an eager decision model gives to each use's question, by its instructions. */
function eagerAnswer(request: ModelRequest): string {
  const system = request.system.map((s) => s.text).join("\n");
  const question = request.messages
    .flatMap((m) => m.content)
    .map((b) => (b.type === "text" ? b.text : ""))
    .join("");
  const extra = eagerNewUses(system, question);
  if (extra !== undefined) return extra;
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
  if (system.includes("reasoning effort")) {
    // The first offered model, when any is offered (the most a route can push).
    const offered = question.match(/^Offered models: ([^,\s]+)/m)?.[1];
    const model = offered && offered !== "none" ? offered : null;
    const effort = question.includes("Allowed efforts: none") ? null : "low";
    return JSON.stringify({ effort, model, reason: "small task" });
  }
  if (system.includes("cautions the request calls for"))
    return JSON.stringify({ reminders: [TURN_START_REMINDER] });
  if (system.includes("line ranges that matter")) return '{"keep": [[1, 10]]}';
  // Keep every planned clear and clear every other result: both directions at once.
  if (system.includes("context is getting full")) {
    const ids = (part: string | undefined) =>
      (part ?? "").split("\n").flatMap((l) => (/^\S+ \S+ /.test(l) ? [l.split(" ")[0]] : []));
    const [, planned, others] = question.split(/Planned to clear:\n|\n\nNot planned:\n/);
    return JSON.stringify({ keep: ids(planned), add: ids(others) });
  }
  if (system.includes("multiple-choice questions")) return docAnswers(question);
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
