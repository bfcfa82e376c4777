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

const MARK = "E2E-AGENT-MARKER";
const body = (r: FakeProviderRequest) => JSON.stringify(r.body);
const hasTools = (r: FakeProviderRequest) =>
  Array.isArray((r.body as { tools?: unknown[] }).tools) &&
  ((r.body as { tools: unknown[] }).tools.length ?? 0) > 0;
const isSub = (r: FakeProviderRequest) => hasTools(r) && body(r).includes(MARK);
const isMain = (r: FakeProviderRequest) => hasTools(r) && !body(r).includes(MARK);

describe("a subagent over the fake provider (Anthropic wire format, real SDK)", () => {
  it("runs the Agent call through real HTTP requests and returns the report", async () => {
    const repo = await createFixtureRepo({
      files: {
        "notes.txt": "the answer is 42\n",
        ".claude/agents/finder.md": `---\nname: finder\ndescription: Finds things\ntools: Read, Grep\nmodel: inherit\n---\n${MARK}\n`,
      },
    });
    const home = await mkdtemp(join(tmpdir(), "zeng-agents-e2e-"));
    const provider = await startFakeProvider({
      script: [
        when(
          isMain,
          reply.toolCall("Agent", {
            description: "find",
            prompt: "Find the answer",
            subagent_type: "finder",
          }),
        ),
        when(isSub, reply.toolCall("Read", { file_path: repo.path("notes.txt") })),
        when(isSub, reply.text("The answer is 42 (notes.txt:1).")),
        when(isMain, reply.text("42")),
        when(() => true, reply.text("Title")),
      ],
    });
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      ZENGINE_HOME: join(home, "data"),
      ZENGINE_CONFIG_HOME: join(home, "config"),
    };
    const engine = await createEngine({
      paths: resolvePaths(env),
      env,
      homeDir: home,
      catalogSource: "off",
      headless: true,
      provider: {
        kind: "anthropic",
        baseUrl: provider.anthropicBaseUrl,
        apiKey: "k",
        model: "claude-test",
      },
    });
    try {
      const session = await engine.createSession(repo.root, { mode: "acceptEdits" });
      const summary = await session.run("what is the answer?");
      expect(summary.outcome).toBe("completed");
      const subs = provider.requests.filter(isSub);
      expect(subs).toHaveLength(2);
      const tools = (((subs[0]?.body ?? {}) as { tools?: { name: string }[] }).tools ?? []).map(
        (t) => t.name,
      );
      expect(tools.sort()).toEqual(["Grep", "Read"]);
      const last = body(provider.requests.filter(isMain).at(-1) as FakeProviderRequest);
      expect(last).toContain("The answer is 42 (notes.txt:1).");
    } finally {
      await engine.shutdown();
      await provider.close();
      await repo.dispose();
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});
