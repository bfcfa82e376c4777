import { basePrompt, BUILTIN_TOOL_NAMES, toolDescription } from "@z-engine/prompts";
import type { Message, ModelRequest, ToolSpec } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { clearToolResults, planToolResultClearing } from "./clearing.js";
import { compact } from "./compact.js";
import {
  assistant,
  memorySink,
  round,
  scriptedClient,
  text,
  user,
} from "./fixtures.test.helper.js";
import { ReminderQueue } from "./reminders.js";
import { buildRequest } from "./request.js";
import { buildSystemSections, renderEnvironment } from "./system-sections.js";
import { createTokenEstimator } from "./tokens.js";

/** Fresh but equal inputs every round, as the engine would rebuild them. */
function system() {
  return buildSystemSections({
    base: basePrompt(),
    environment: renderEnvironment({ projectRoot: "/p", platform: "linux", date: "2025-01-01" }),
    instructions: "# Instructions\nUse pnpm.",
  });
}
function tools(): ToolSpec[] {
  return BUILTIN_TOOL_NAMES.map((name) => ({
    name,
    description: toolDescription(name),
    inputSchema: { type: "object", properties: { file_path: { type: "string" } } },
  }));
}

/** The bytes that must be a prefix of the next request: everything but the cache marks. */
function prefixBytes(request: ModelRequest): { head: string; messages: string[] } {
  return {
    head: JSON.stringify({ model: request.model, system: request.system, tools: request.tools }),
    messages: request.messages.map((m) => JSON.stringify(m)),
  };
}

describe("buildRequest", () => {
  it("puts cache marks on the last cacheable section, the tools and the last two user messages", () => {
    const messages = [user(text("a")), ...round(0), ...round(1)];
    const request = buildRequest({
      model: "m",
      system: system(),
      tools: tools(),
      messages,
      maxTokens: 1000,
      effort: "high",
    });
    expect(request.cacheMarks).toEqual([
      { target: "system", index: 2 },
      { target: "tools" },
      { target: "message", index: 2 },
      { target: "message", index: 4 },
    ]);
    expect(request.effort).toBe("high");
    const bare = buildRequest({
      model: "m",
      system: [],
      tools: [],
      messages: [user(text("a"))],
      maxTokens: 10,
    });
    expect(bare.cacheMarks).toEqual([{ target: "message", index: 0 }]);
    expect("effort" in bare).toBe(false);
  });

  it("keeps a byte-identical prefix over 60 rounds, except right after clearing or compaction", async () => {
    const estimator = createTokenEstimator();
    const reminders = new ReminderQueue();
    const { sink } = memorySink();
    const { client } = scriptedClient([
      { type: "textDelta", text: "Summary of the first rounds." },
      { type: "stop", reason: "endTurn" },
    ]);
    let messages: Message[] = [user(text("Fix the parser."))];
    let previous: ReturnType<typeof prefixBytes> | undefined;
    const breaks: number[] = [];
    for (let r = 0; r < 60; r++) {
      let changed = false;
      if (r === 25) {
        const plan = planToolResultClearing(messages, {
          windowTokens: 10_000,
          estimator,
          keepLast: 3,
        });
        expect(plan).not.toBeNull();
        const cleared = await clearToolResults(messages, plan ?? { toolUseIds: [] }, sink);
        messages = cleared?.messages ?? messages;
        changed = true;
      }
      if (r === 45) {
        const outcome = await compact({
          messages,
          client,
          model: "fast",
          estimator,
          trigger: "auto",
          keepRecentTokens: 2000,
        });
        expect(outcome.ok).toBe(true);
        if (outcome.ok) messages = outcome.messages;
        changed = true;
      }
      const request = buildRequest({
        model: "main",
        system: system(),
        tools: tools(),
        messages,
        maxTokens: 8000,
      });
      const bytes = prefixBytes(request);
      if (previous !== undefined) {
        const isPrefix =
          bytes.head === previous.head &&
          previous.messages.every((m, i) => bytes.messages[i] === m);
        if (!isPrefix) breaks.push(r);
        expect(isPrefix, `round ${r}`).toBe(!changed);
      }
      previous = bytes;
      const [reply, results] = round(r, 2);
      if (r % 10 === 3) reminders.add({ key: `job:${r}`, text: `Job ${r} finished.` });
      messages = [...messages, reply as Message, reminders.appendTo(results as Message)];
    }
    expect(breaks).toEqual([25, 45]);
  });

  it("builds the same request from the same transcript every time", () => {
    const messages = [user(text("a")), ...round(0), assistant(text("done"))];
    const one = buildRequest({
      model: "m",
      system: system(),
      tools: tools(),
      messages,
      maxTokens: 5,
    });
    const two = buildRequest({
      model: "m",
      system: system(),
      tools: tools(),
      messages: [...messages],
      maxTokens: 5,
    });
    expect(JSON.stringify(two)).toBe(JSON.stringify(one));
  });
});
