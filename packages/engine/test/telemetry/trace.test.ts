import { metrics, trace } from "@opentelemetry/api";
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type ResourceMetrics,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reply } from "@z-engine/testkit";
import {
  type Harness,
  type HarnessOptions,
  harness,
  loginProject,
  walkthroughScript,
} from "../harness.js";

class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const PROMPT = "The login test fails. Please fix it.";
let h: Harness | undefined;
let exporter: InMemorySpanExporter;
let reader: CollectingReader;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  reader = new CollectingReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  trace.disable();
  metrics.disable();
});

async function runWalkthrough(engine: HarnessOptions["engine"] = {}) {
  h = await harness({
    files: loginProject,
    script: [],
    approve: ({ toolName, suggestedRules }) =>
      toolName === "Verify"
        ? { type: "allowSession", rule: suggestedRules[0] ?? "Bash(npm test:*)" }
        : { type: "allowOnce" },
    engine,
  });
  h.model.push(...walkthroughScript((p) => (h as Harness).repo.path(p)));
  const summary = await h.session.run(PROMPT);
  expect(summary.outcome).toBe("completed");
  await h.session.close();
  return exporter.getFinishedSpans();
}

const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan) =>
  spans
    .filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);

function metricPoints(collected: ResourceMetrics, name: string) {
  const found = collected.scopeMetrics
    .flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === name);
  return found?.dataPoints ?? [];
}

describe("the trace of the five-round fix", () => {
  it("is session > turn > five rounds of chat, tool and check spans", async () => {
    const spans = await runWalkthrough();
    const roots = spans.filter((s) => !s.parentSpanContext);
    expect(roots.map((s) => s.name)).toEqual(["zeng.session"]);
    const [session] = roots as [ReadableSpan];
    expect(session.attributes["gen_ai.conversation.id"]).toBe(h?.session.id);
    const turns = childrenOf(spans, session);
    expect(turns.map((s) => s.name)).toEqual(["zeng.turn"]);
    const turn = turns[0] as ReadableSpan;
    expect(turn.attributes).toMatchObject({
      "zeng.turn.outcome": "completed",
      "zeng.turn.badge": "verified",
      "zeng.turn.rounds": 5,
    });
    const rounds = childrenOf(spans, turn);
    expect(rounds.map((s) => s.name)).toEqual(Array(5).fill("zeng.round"));
    // The read-only calls of a round run at once: their order is not fixed.
    const shape = rounds.map((r) =>
      childrenOf(spans, r)
        .map((s) => s.name.replace("claude-sonnet-5-5", "MODEL"))
        .sort(),
    );
    expect(shape).toEqual([
      ["chat MODEL", "execute_tool Verify", "zeng.check npm:test"],
      ["chat MODEL", "execute_tool Grep", "execute_tool Read", "execute_tool Read"],
      ["chat MODEL", "execute_tool Edit"],
      ["chat MODEL", "execute_tool Verify", "zeng.check npm:test"],
      ["chat MODEL"],
    ]);
    const chats = spans.filter((s) => s.name.startsWith("chat "));
    expect(chats.map((s) => s.attributes["gen_ai.response.finish_reasons"])).toEqual([
      ["toolUse"],
      ["toolUse"],
      ["toolUse"],
      ["toolUse"],
      ["endTurn"],
    ]);
    for (const chat of chats)
      expect(Object.keys(chat.attributes)).toEqual(
        expect.arrayContaining([
          "gen_ai.operation.name",
          "gen_ai.request.model",
          "gen_ai.usage.input_tokens",
          "gen_ai.usage.output_tokens",
          "gen_ai.usage.cache_read.input_tokens",
        ]),
      );
    const edit = spans.find((s) => s.name === "execute_tool Edit");
    expect(edit?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "Edit",
      "zeng.tool.outcome": "ok",
    });
    const approvals = rounds[2]?.events.map((e) => [e.name, e.attributes?.["gen_ai.tool.call.id"]]);
    const editCall = edit?.attributes["gen_ai.tool.call.id"];
    expect(approvals).toEqual([
      ["approval.asked", editCall],
      ["approval.answered", editCall],
    ]);
    const checks = spans.filter((s) => s.name.startsWith("zeng.check"));
    expect(checks.map((s) => s.attributes["zeng.check.passed"])).toEqual([false, true]);
    // No content unless a setting asks for it.
    const text = JSON.stringify(spans.map((s) => s.attributes));
    expect(text).not.toContain("login test fails");
    expect(text).not.toContain("isExpired");
    expect(spans.every((s) => s.endTime[0] > 0)).toBe(true);
  });

  it("records the prompt and tool inputs only when content capture is on", async () => {
    const spans = await runWalkthrough({ telemetry: { captureContent: true } });
    const turn = spans.find((s) => s.name === "zeng.turn");
    expect(turn?.attributes["zeng.turn.prompt"]).toBe(PROMPT);
    const grep = spans.find((s) => s.name === "execute_tool Grep");
    expect(JSON.parse(String(grep?.attributes["gen_ai.tool.call.arguments"]))).toMatchObject({
      pattern: "isExpired",
    });
  });

  it("counts tokens, tool durations, approvals and turns on the host's meter", async () => {
    await runWalkthrough();
    const { resourceMetrics } = await reader.collect();
    const tokens = metricPoints(resourceMetrics, "gen_ai.client.token.usage");
    expect(tokens.map((p) => p.attributes["gen_ai.token.type"])).toEqual(
      expect.arrayContaining(["input", "output"]),
    );
    const tools = metricPoints(resourceMetrics, "gen_ai.execute_tool.duration");
    expect([...new Set(tools.map((p) => p.attributes["gen_ai.tool.name"]))].sort()).toEqual([
      "Edit",
      "Grep",
      "Read",
      "Verify",
    ]);
    const asked = metricPoints(resourceMetrics, "zeng.approvals.asked");
    expect(asked.map((p) => [p.attributes["gen_ai.tool.name"], p.value]).sort()).toEqual([
      ["Edit", 1],
      ["Verify", 1],
    ]);
    const answered = metricPoints(resourceMetrics, "zeng.approvals.answered");
    expect(answered.reduce((n, p) => n + Number(p.value), 0)).toBe(2);
    const turns = metricPoints(resourceMetrics, "zeng.turn.duration");
    expect(turns.map((p) => p.attributes["zeng.turn.outcome"])).toEqual(["completed"]);
  });

  it("adds up the model's cost and counts errors by kind", async () => {
    h = await harness({
      files: loginProject,
      script: [
        reply.text("Hello.", { usage: { input: 1_000, output: 200 } }),
        reply.error("authentication", "HTTP 401"),
      ],
    });
    expect((await h.session.run("Say hello.")).outcome).toBe("completed");
    const before = await reader.collect();
    const cost = metricPoints(before.resourceMetrics, "zeng.cost");
    expect(cost.reduce((sum, p) => sum + Number(p.value), 0)).toBeGreaterThan(0);
    expect(metricPoints(before.resourceMetrics, "zeng.errors")).toEqual([]);
    // A turn the provider refuses: the failure is counted by its kind.
    expect((await h.session.run("Once more.")).outcome).toBe("failed");
    const { resourceMetrics } = await reader.collect();
    const errors = metricPoints(resourceMetrics, "zeng.errors").map((p) => [
      p.attributes["error.type"],
      p.value,
    ]);
    expect(errors).toEqual(expect.arrayContaining([["turn_failed", 1]]));
  });
});
