import type { ModelEvent, ModelRequest } from "@z-engine/protocol";

/** A small valid request; fields can be overridden. */
export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "claude-test-1",
    system: [{ id: "base", text: "You are a test.", cacheable: true }],
    tools: [],
    messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
    cacheMarks: [],
    maxTokens: 1024,
    ...overrides,
  };
}

/** Every event of a stream, in order. */
export async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

/** The events of a stream without usage events (to compare content and terminal). */
export const withoutUsage = (events: ModelEvent[]) => events.filter((e) => e.type !== "usage");

/** A sleep that records waits and returns at once. */
export function fakeSleep() {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  return { waits, sleep };
}
