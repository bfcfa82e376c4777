// Streams a 2,000-chunk response through each client and, in the same run, through the bare
// SDK's raw stream iterator (`stream: true`), from the local fake provider. Prints the medians.
import Anthropic from "@anthropic-ai/sdk";
import type { ModelRequest } from "@z-engine/protocol";
import { reply, startFakeProvider } from "@z-engine/testkit";
import OpenAI from "openai";
import { createModelClient, toAnthropicParams, toOpenAiParams } from "../src/index.js";

const CHUNKS = 2000;
const WARMUP = 5;
const RUNS = 61;
const text = "abcdefghij".repeat(CHUNKS);
const request: ModelRequest = {
  model: "bench-model",
  system: [{ id: "s", text: "bench", cacheable: true }],
  tools: [],
  messages: [{ role: "user", content: [{ type: "text", text: "go" }] }],
  cacheMarks: [],
  maxTokens: 4096,
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function time(run: () => Promise<number>): Promise<number> {
  const start = performance.now();
  const chunks = await run();
  const elapsed = performance.now() - start;
  if (chunks < CHUNKS) throw new Error(`only ${chunks} chunks arrived`);
  return elapsed;
}

async function bench(kind: "anthropic" | "openai") {
  const total = (WARMUP + RUNS) * 2;
  const server = await startFakeProvider({
    script: Array.from({ length: total }, () => ({
      ...reply.text(text),
      wire: { textChunkChars: 10 },
    })),
  });
  const baseUrl = kind === "anthropic" ? server.anthropicBaseUrl : server.openaiBaseUrl;
  const client = createModelClient({ kind, baseUrl, apiKey: "bench" }, { env: {} });
  const ours = async () => {
    let n = 0;
    for await (const e of client.stream(request)) if (e.type === "textDelta") n++;
    return n;
  };
  const anthropic = new Anthropic({
    baseURL: server.anthropicBaseUrl,
    apiKey: "bench",
    maxRetries: 0,
  });
  const openai = new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: "bench", maxRetries: 0 });
  const bare = async () => {
    let n = 0;
    if (kind === "anthropic") {
      const stream = await anthropic.messages.create(toAnthropicParams(request));
      for await (const e of stream) if (e.type === "content_block_delta") n++;
    } else {
      const params = toOpenAiParams(request, { cacheControl: false, maxCompletionTokens: false });
      const stream = await openai.chat.completions.create(params);
      for await (const c of stream) if (c.choices[0]?.delta.content) n++;
    }
    return n;
  };
  const oursTimes: number[] = [];
  const bareTimes: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    // Alternate which goes first so that drift hits both alike.
    const pair = i % 2 === 0 ? [await time(ours), await time(bare)] : [0, 0];
    if (i % 2 === 1) {
      pair[1] = await time(bare);
      pair[0] = await time(ours);
    }
    if (i >= WARMUP) {
      oursTimes.push(pair[0] ?? 0);
      bareTimes.push(pair[1] ?? 0);
    }
  }
  await server.close();
  const m = median(oursTimes);
  const b = median(bareTimes);
  console.log(
    `workload: ${kind} SSE response of ${CHUNKS} text chunks from the local fake provider, createModelClient vs the bare SDK stream, median of ${RUNS} after ${WARMUP} warm-ups`,
  );
  console.log(
    `BENCH llm.${kind} ${m.toFixed(2)} ms baseline=${b.toFixed(2)} ratio=${(m / b).toFixed(3)}`,
  );
}

await bench("anthropic");
await bench("openai");
