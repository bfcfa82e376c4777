// The decision layer's cost per round with every feature Off (the default): the seams a round
// passes (before a request: screening new tool results with the always-on key detector; the
// tool gate; ask user and relevance on the tool-result path; context pressure; the request's
// effort; turn start and the stop seam once a turn). Absolute figure: no tool does
// the same work. Target: < 0.05 ms a round.
import { defaultSettings } from "@z-engine/config";
import type { Message, MessageId, ToolCallId, TurnId } from "@z-engine/protocol";
import { answerFromDocs } from "../src/decisions/ask-seam.js";
import { plannedClears, relevantParts, remindAtTurnStart } from "../src/decisions/context-seams.js";
import { reviewAtGate } from "../src/decisions/gate-seam.js";
import { screenedMessages } from "../src/decisions/screen.js";
import { routedEffort } from "../src/decisions/route-seam.js";
import { decideAtStop } from "../src/decisions/stop-seam.js";
import type { AgentRun } from "../src/core/agent-context.js";
import type { SessionCore } from "../src/core/session-core.js";

const ROUNDS = 200;
const SESSIONS = 7;
const RESULT = `${"PASS src/auth/token.test.ts\n  ✓ login token expires (3 ms)\n".repeat(40)}`;

function fakeCore(messages: Message[]): SessionCore {
  const settings = defaultSettings();
  return {
    config: { settings, fastModel: "fast" },
    effort: undefined,
    checkRecords: [],
    journal: { emit: () => {} },
    workingSet: () => messages,
    client: () => {
      throw new Error("no model in the bench");
    },
  } as unknown as SessionCore;
}

async function session(): Promise<number> {
  const messages: Message[] = [];
  const core = fakeCore(messages);
  const turn = {
    turnId: "turn_bench" as TurnId,
    signal: new AbortController().signal,
    startedAt: 0,
    writtenPaths: new Set<string>(),
  };
  const allow = { type: "allow" as const };
  const run = { depth: 0, transcript: { workingSet: () => messages } } as unknown as Pick<
    AgentRun,
    "depth" | "transcript"
  >;
  const call = { toolName: "Read", input: {}, actions: [] };
  const tool = { tool: { name: "Read" }, input: {} };
  const content = [{ type: "text" as const, text: RESULT }];
  let took = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const id = `toolu_${i}` as ToolCallId;
    messages.push(
      {
        id: `m${i}a` as MessageId,
        role: "assistant",
        content: [{ type: "toolUse", id, name: "Read", input: {} }],
      },
      {
        id: `m${i}u` as MessageId,
        role: "user",
        content: [
          {
            type: "toolResult",
            toolUseId: id,
            content: [{ type: "text", text: RESULT }],
            isError: false,
          },
        ],
      },
    ) as unknown;
    const start = performance.now();
    if (i === 0) await remindAtTurnStart(core, turn, "fix the login test");
    await plannedClears(core, turn, messages, { toolUseIds: [] });
    await screenedMessages(core, turn, messages);
    await reviewAtGate(core, call, allow, turn.signal);
    await answerFromDocs(core, tool, turn);
    await relevantParts(core, tool, content, turn);
    routedEffort(run, turn);
    if (i === ROUNDS - 1) await decideAtStop(core, run, turn, { end: true });
    took += performance.now() - start;
  }
  return took / ROUNDS;
}

await session(); // warm-up
const perRound: number[] = [];
for (let s = 0; s < SESSIONS; s++) perRound.push(await session());
perRound.sort((a, b) => a - b);
const median = perRound[Math.floor(perRound.length / 2)] as number;
console.log(
  `workload: ${SESSIONS} sessions of ${ROUNDS} rounds, one new 2.2 KB tool result a round, every decision feature off`,
);
console.log(`BENCH engine.decisions.off ${median.toFixed(4)} ms`);
