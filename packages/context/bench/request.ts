// Benchmarks building model requests (design.md §7): `context.build` from a cold transcript,
// `context.next` for the next round once one exchange was added to a warm one.
import type { Message, MessageId, ToolCallId, ToolSpec } from "@z-engine/protocol";
import { basePrompt, BUILTIN_TOOL_NAMES, toolDescription } from "@z-engine/prompts";
import { buildRequest, buildSystemSections, createTokenEstimator } from "../src/index.js";

const RESULT_CHARS = 2_900;
let seq = 0;
const id = () => `msg_${++seq}` as MessageId;

function exchange(i: number): Message[] {
  const callId = `call_${i}` as ToolCallId;
  const body = `line ${i} of some source file with code in it;\n`
    .repeat(RESULT_CHARS / 45)
    .slice(0, RESULT_CHARS);
  return [
    {
      id: id(),
      role: "assistant",
      content: [
        { type: "text", text: `Step ${i}: reading the next file to follow the call chain.` },
        {
          type: "toolUse",
          id: callId,
          name: "Read",
          input: { file_path: `/repo/src/module-${i}.ts` },
        },
      ],
    },
    {
      id: id(),
      role: "user",
      content: [
        {
          type: "toolResult",
          toolUseId: callId,
          content: [{ type: "text", text: body }],
          isError: false,
        },
      ],
    },
  ];
}

function transcript(messages: number): Message[] {
  const out: Message[] = [
    { id: id(), role: "user", content: [{ type: "text", text: "Fix the failing parser test." }] },
  ];
  for (let i = 0; out.length < messages; i++) out.push(...exchange(i));
  return out.slice(0, messages);
}

/** Fresh message objects (cold caches) over the same strings. */
const copy = (messages: readonly Message[]): Message[] => messages.map((m) => ({ ...m }));

const system = buildSystemSections({
  base: basePrompt(),
  environment: "# Environment\nWorking directory: /repo",
});
const tools: ToolSpec[] = BUILTIN_TOOL_NAMES.map((name) => ({
  name,
  description: toolDescription(name),
  inputSchema: {
    type: "object",
    properties: { file_path: { type: "string" } },
    required: ["file_path"],
  },
}));
const build = (messages: readonly Message[]) =>
  buildRequest({ model: "main", system, tools, messages, maxTokens: 32_000 });

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const base = transcript(400);
const tokens = createTokenEstimator().estimateRequest(build(base));
console.log(
  `workload: request for a ${base.length}-message transcript of about ${Math.round(tokens / 1000)}k tokens, built from scratch (cold caches); 200 runs after 50 warm-ups`,
);
const cold: number[] = [];
for (let run = 0; run < 250; run++) {
  const messages = copy(base);
  const start = performance.now();
  build(messages);
  if (run >= 50) cold.push(performance.now() - start);
}
console.log(`BENCH context.build ${median(cold).toFixed(3)} ms`);

console.log(
  "workload: next round's request after one exchange was added to a 398-message transcript already built once; 500 runs after 50 warm-ups",
);
const next: number[] = [];
const prefix = base.slice(0, 398);
for (let run = 0; run < 550; run++) {
  const messages = copy(prefix);
  build(messages);
  const grown = [...messages, ...exchange(10_000 + run)];
  const start = performance.now();
  build(grown);
  if (run >= 50) next.push(performance.now() - start);
}
console.log(`BENCH context.next ${median(next).toFixed(3)} ms`);
