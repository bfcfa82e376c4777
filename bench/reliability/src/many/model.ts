import {
  type FakeProviderRequest,
  reply,
  type ScriptFault,
  type ScriptReply,
} from "@z-engine/testkit";
import { wireMessages } from "../wire/read.js";

/** The session the fake provider hammers with faults (the others must not notice). */
export const HAMMERED = 0;

/** The faults the hammered session's attempts get, in turn (each retried by the client). */
const FAULTS: readonly ScriptFault[] = [
  { status: 429, retryAfter: 1 },
  { status: 529 },
  { status: 500 },
  { status: 502 },
  { status: 503 },
  { drop: "beforeFirstByte" },
  { status: 429 },
];

const PROMPT = /session (\d+) step (\d+)/;

/** What the many-sessions model needs: where each session's side effects go. */
export interface ManyModelOptions {
  readonly effectsFileOf: (session: number) => string;
}

/**
 * The fake provider's model for many sessions at once: each step of each session (its prompt
 * says `session N step K`) runs one Bash side effect and answers; every attempt of the
 * hammered session fails twice in three (429 with and without retry-after, 529, 5xx, a
 * dropped connection) before it is answered.
 */
export function manyModel(options: ManyModelOptions): (r: FakeProviderRequest) => ScriptReply {
  let attempts = 0;
  let tokens = 0;
  return (request) => {
    const messages = wireMessages(request);
    const prompt = messages
      .filter((m) => m.role === "user")
      .flatMap((m) => m.texts)
      .map((t) => PROMPT.exec(t))
      .findLast((m) => m !== null);
    if (prompt == null) return reply.text("no session named");
    const session = Number(prompt[1]);
    if (session === HAMMERED && attempts++ % 3 !== 2)
      return { fault: FAULTS[Math.floor(attempts / 3) % FAULTS.length] ?? { status: 500 } };
    const last = messages.at(-1);
    if (last !== undefined && last.results.length > 0) return reply.text(`step ${prompt[2]} done`);
    tokens++;
    const token = `s${session}-k${prompt[2]}-t${tokens}`;
    return reply.toolCall("Bash", {
      command: `echo ${token} >> ${options.effectsFileOf(session)}`,
    });
  };
}
