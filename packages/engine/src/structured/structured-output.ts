import { type EventEnvelope, newTurnId, type TurnId, type Usage } from "@z-engine/protocol";
import { z } from "zod";
import type { SessionHandle } from "../session/handle.js";
import type { TurnSummary } from "../run/turn.js";

/** A JSON Schema the final answer must match (an object, as JSON Schema documents are). */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;

/** How {@link runStructured} ended. */
export interface StructuredRun {
  /** The last attempt's turn, with the usage and duration of all attempts added up. */
  readonly summary: TurnSummary;
  /** The validated value; absent when no attempt matched (see `error`) or a turn did not complete. */
  readonly output?: unknown;
  /** Why the last answer did not match (absent when `output` is set). */
  readonly error?: string;
  /** The turns it took (1 when the first answer matched). */
  readonly attempts: number;
}

/** A schema that cannot be used (not an object, or not a JSON Schema zod can read). */
export class StructuredOutputError extends Error {
  readonly code = "structuredOutput.badSchema";
}

/** Options of {@link runStructured}. */
export interface StructuredOptions {
  /** Turns in all, the first included (default 3). */
  readonly maxAttempts?: number;
}

function validatorOf(schema: JsonSchemaObject): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new StructuredOutputError(`the JSON Schema cannot be used: ${(error as Error).message}`);
  }
}

/** The JSON in an answer: the whole text, or the body of its one fenced block. */
function parseAnswer(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n\s*```/.exec(text);
  const body = (fenced ? fenced[1] : text)?.trim() ?? "";
  if (body === "") return { ok: false, error: "the answer was empty" };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, error: `the answer is not JSON: ${(error as Error).message}` };
  }
}

function check(validator: z.ZodType, text: string) {
  const parsed = parseAnswer(text);
  if (!parsed.ok) return parsed;
  const result = validator.safeParse(parsed.value);
  if (result.success) return { ok: true as const, value: parsed.value };
  const issues = result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  return {
    ok: false as const,
    error: `the answer does not match the schema: ${issues.join("; ")}`,
  };
}

/** The main agent's last assistant text of turn `turnId`, read as its events arrive. */
async function lastText(session: SessionHandle, turnId: TurnId, ended: Promise<unknown>) {
  let text = "";
  let inTurn = false;
  const collect = (async () => {
    for await (const envelope of session.events() as AsyncIterable<EventEnvelope>) {
      const e = envelope.event;
      if (e.type === "turnStarted") inTurn = e.turnId === turnId;
      if (e.type === "turnFinished" && e.turnId === turnId) return;
      if (!inTurn || envelope.agentId !== undefined || e.type !== "assistantFinished") continue;
      const t = e.message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      if (t !== "") text = t;
    }
  })();
  await Promise.race([collect, ended.then(() => collect)]);
  return text;
}

const add = (a: Usage, b: Usage): Usage => ({
  input: a.input + b.input,
  output: a.output + b.output,
  cacheRead: a.cacheRead + b.cacheRead,
  cacheWrite: a.cacheWrite + b.cacheWrite,
  costUsd: a.costUsd + b.costUsd,
});

function instruction(schema: JsonSchemaObject): string {
  return `\n\nEnd with your final answer as a single JSON value (no prose around it) that matches this JSON Schema:\n${JSON.stringify(schema)}`;
}

/**
 * Runs `prompt` as a turn whose final answer must be JSON matching `schema` (`--json-schema`,
 * the Agent SDK's `outputFormat`). The schema goes with the prompt; an answer that does not
 * parse or match is sent back with the error as the next turn, up to `maxAttempts` turns.
 * Resolves with the value, or the last error; a turn that does not complete ends the attempts.
 * Throws StructuredOutputError (before any turn) for a schema zod cannot read.
 */
export async function runStructured(
  session: SessionHandle,
  prompt: string,
  schema: JsonSchemaObject,
  options: StructuredOptions = {},
): Promise<StructuredRun> {
  const validator = validatorOf(schema);
  const maxAttempts = options.maxAttempts ?? 3;
  let text = `${prompt}${instruction(schema)}`;
  let usage: Usage | undefined;
  let durationMs = 0;
  for (let attempt = 1; ; attempt++) {
    const turnId = newTurnId();
    const ended = session.turnEnd(turnId);
    const answer = lastText(session, turnId, ended);
    session.send({ type: "submit", text, turnId });
    const turn = await ended;
    const final = await answer;
    usage = usage ? add(usage, turn.usage) : turn.usage;
    durationMs += turn.durationMs;
    const summary = { ...turn, usage, durationMs };
    if (turn.outcome !== "completed") return { summary, attempts: attempt };
    const checked = check(validator, final);
    if (checked.ok) return { summary, output: checked.value, attempts: attempt };
    if (attempt >= maxAttempts) return { summary, error: checked.error, attempts: attempt };
    text = `Your final answer was not accepted: ${checked.error}.${instruction(schema)}`;
  }
}
