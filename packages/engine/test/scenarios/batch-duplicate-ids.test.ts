import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine } from "@z-engine/engine";
import {
  createFixtureRepo,
  type FakeProviderRequest,
  reply,
  startFakeProvider,
  when,
} from "@z-engine/testkit";
import { describe, expect, it } from "vitest";

type Json = Record<string, unknown>;
const hasTools = (r: FakeProviderRequest) => Array.isArray((r.body as Json).tools);

/** Each call id and each answered id of the request's conversation, in the wire's own terms. */
function pairing(format: "anthropic" | "openai", body: Json) {
  const messages = (body.messages ?? []) as Json[];
  const calls: string[] = [];
  const answers: string[] = [];
  for (const m of messages) {
    if (format === "anthropic" && Array.isArray(m.content))
      for (const b of m.content as Json[]) {
        if (b.type === "tool_use") calls.push(String(b.id));
        if (b.type === "tool_result") answers.push(String(b.tool_use_id));
      }
    if (format === "openai") {
      for (const c of (m.tool_calls ?? []) as Json[]) calls.push(String(c.id));
      if (m.role === "tool") answers.push(String(m.tool_call_id));
    }
  }
  return { calls, answers };
}

describe("two tool calls with the same id (issue 38, item 26)", { timeout: 60_000 }, () => {
  for (const format of ["anthropic", "openai"] as const)
    it(`each gets its own id and exactly one result, so the next ${format} request is valid`, async () => {
      const repo = await createFixtureRepo({ files: { "a.txt": "alpha\n", "b.txt": "beta\n" } });
      const home = await mkdtemp(join(tmpdir(), "zeng-dup-ids-"));
      const provider = await startFakeProvider({
        script: [
          when(
            hasTools,
            reply.toolCalls([
              { name: "Read", input: { file_path: repo.path("a.txt") }, id: "call_1" },
              { name: "Read", input: { file_path: repo.path("b.txt") }, id: "call_1" },
            ]),
          ),
          when(hasTools, reply.text("done")),
          when(() => true, reply.text("Title")),
        ],
      });
      const env = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        ZENGINE_HOME: join(home, "data"),
        ZENGINE_CONFIG_HOME: join(home, "config"),
      };
      const events: { type: string; code?: string; message?: string }[] = [];
      const engine = await createEngine({
        paths: resolvePaths(env),
        env,
        homeDir: home,
        catalogSource: "off",
        headless: true,
        onEvent: (e) => events.push(e.event as (typeof events)[number]),
        provider: {
          kind: format,
          baseUrl: format === "anthropic" ? provider.anthropicBaseUrl : provider.openaiBaseUrl,
          apiKey: "k",
          model: format === "anthropic" ? "claude-test" : "gpt-test",
        },
      });
      try {
        const session = await engine.createSession(repo.root, { mode: "acceptEdits" });
        const summary = await session.run("read both");
        expect(summary.outcome).toBe("completed");
        const second = provider.requests.filter(hasTools)[1] as FakeProviderRequest;
        const { calls, answers } = pairing(format, second.body as Json);
        expect(calls).toEqual(["call_1", "call_1_2"]);
        expect(answers).toEqual(["call_1", "call_1_2"]);
        const text = JSON.stringify(second.body);
        expect(text).toContain("alpha");
        expect(text).toContain("beta");
        expect(events.find((e) => e.code === "model.duplicateToolId")?.message).toMatch(
          /renamed call_1 to call_1_2/,
        );
      } finally {
        await engine.shutdown();
        await provider.close();
        await repo.dispose();
        await rm(home, { recursive: true, force: true });
      }
    });
});
