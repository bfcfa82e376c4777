import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { reply } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, harness, loginProject } from "../harness.js";
import { type HookScripts, type HookSpec, hookScripts } from "../hook-scripts.js";

let h: Harness | undefined;
let hooks: HookScripts | undefined;
let exporter: InMemorySpanExporter;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
});
afterEach(async () => {
  await h?.dispose();
  await hooks?.dispose();
  h = undefined;
  hooks = undefined;
  trace.disable();
});

const SPECS: readonly HookSpec[] = [
  { event: "SessionStart", body: "exit 0" },
  { event: "UserPromptSubmit", body: "exit 0" },
  { event: "PreToolUse", matcher: "Bash", body: 'echo "no shell here" >&2\nexit 2' },
  { event: "PostToolUse", matcher: "Read", body: 'echo "lint broke" >&2\nexit 1' },
  { event: "SubagentStop", body: "exit 0" },
  { event: "Stop", body: "exit 0" },
];

const parentOf = (spans: readonly ReadableSpan[], span: ReadableSpan | undefined) =>
  spans.find((s) => s.spanContext().spanId === span?.parentSpanContext?.spanId);
const nanos = ([s, ns]: readonly [number, number]) => s * 1e9 + ns;

/** A turn with a blocked Bash call, a Read, a subagent that reads too, then the end. */
async function runTurn(): Promise<readonly ReadableSpan[]> {
  hooks = await hookScripts(SPECS);
  h = await harness({
    files: loginProject,
    script: [],
    overrides: { mode: "bypass" },
    userSettings: hooks.toml,
  });
  const file = h.repo.path("src/auth/token.js");
  h.model.push(
    reply.toolCalls([
      { name: "Bash", input: { command: "touch blocked.txt" } },
      { name: "Read", input: { file_path: file } },
    ]),
    reply.toolCall("Agent", {
      description: "look",
      prompt: "Read the file.",
      subagent_type: "general",
    }),
    reply.toolCall("Read", { file_path: file }),
    reply.text("sub done"),
    reply.text("done"),
  );
  expect((await h.session.run("Go.")).outcome).toBe("completed");
  await h.session.close();
  return exporter.getFinishedSpans();
}

describe("hook spans", () => {
  it("give every hook run a span under the session, turn, round or tool call that caused it", async () => {
    const spans = await runTurn();
    const hookSpans = spans.filter((s) => s.name.startsWith("zeng.hook "));
    expect(hookSpans.map((s) => s.name).sort()).toEqual([
      "zeng.hook PostToolUse",
      "zeng.hook PostToolUse",
      "zeng.hook PreToolUse",
      "zeng.hook SessionStart",
      "zeng.hook Stop",
      "zeng.hook SubagentStop",
      "zeng.hook UserPromptSubmit",
    ]);
    const one = (name: string) => hookSpans.find((s) => s.name === name) as ReadableSpan;
    const session = spans.find((s) => s.name === "zeng.session");
    const turn = spans.find((s) => s.name === "zeng.turn");
    // SessionStart runs as the session opens; UserPromptSubmit before its turn starts.
    expect(parentOf(spans, one("zeng.hook SessionStart"))).toBe(session);
    expect(parentOf(spans, one("zeng.hook UserPromptSubmit"))).toBe(session);
    expect(parentOf(spans, one("zeng.hook Stop"))).toBe(turn);

    const pre = one("zeng.hook PreToolUse");
    expect(pre.attributes).toMatchObject({
      "zeng.hook.event": "PreToolUse",
      "zeng.hook.matcher": "Bash",
      "zeng.hook.command": expect.stringContaining((hooks as HookScripts).dir),
      "zeng.hook.kind": "command",
      "zeng.hook.outcome": "blocked",
      "zeng.hook.blocked": true,
      "process.exit.code": 2,
    });
    // A blocked call never starts: its hook hangs on the round that asked for it.
    const preParent = parentOf(spans, pre);
    expect(preParent?.name).toBe("zeng.round");
    expect(preParent?.attributes["zeng.round.index"]).toBe(1);

    const posts = hookSpans.filter((s) => s.name === "zeng.hook PostToolUse");
    for (const post of posts) {
      const tool = parentOf(spans, post);
      expect(tool?.name).toBe("execute_tool Read");
      expect(post.attributes["gen_ai.tool.call.id"]).toBe(tool?.attributes["gen_ai.tool.call.id"]);
      expect(post.attributes).toMatchObject({
        "zeng.hook.outcome": "failed",
        "zeng.hook.blocked": false,
        "process.exit.code": 1,
        "error.type": "hook_failed",
      });
      expect(post.status.code).toBe(2); // SpanStatusCode.ERROR
    }
    // One Read was the subagent's: its hook is under the subagent's tool span.
    const agents = posts.map(
      (p) => parentOf(spans, parentOf(spans, p))?.attributes["gen_ai.agent.id"],
    );
    expect(agents.filter(Boolean)).toHaveLength(1);

    const subStop = one("zeng.hook SubagentStop");
    const subRound = parentOf(spans, subStop);
    expect(subRound?.name).toBe("zeng.round");
    expect(subRound?.attributes["gen_ai.agent.id"]).toEqual(expect.any(String));
    expect(subStop.attributes["zeng.hook.outcome"]).toBe("ok");

    for (const span of hookSpans)
      expect(nanos(span.endTime)).toBeGreaterThanOrEqual(nanos(span.startTime));
  });

  it("records nothing and costs no span when no SDK is registered", async () => {
    trace.disable();
    const spans = await runTurn();
    expect(spans).toEqual([]);
  });
});
