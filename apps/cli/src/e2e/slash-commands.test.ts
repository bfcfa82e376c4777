import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { main, streamJson, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

describe('zeng -p "/command"', { timeout: 60_000 }, () => {
  it("/cost prints its markdown (text) and exits 0 with no model request", async () => {
    w = await world({ format: "anthropic" });
    const run = await w.run(["-p", "/cost"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("**Cost:** $0.0000");
    expect(w.provider.requests).toHaveLength(0);
  });

  it("/status in stream-json is a commandOutput line, then the result", async () => {
    w = await world({ format: "anthropic" });
    const run = await w.run(["-p", "/status", "--output-format", "stream-json"]);
    expect(run.code).toBe(0);
    const { envelopes, result } = streamJson(run.stdout);
    const outputs = envelopes.filter((e) => e.event.type === "commandOutput");
    expect(outputs).toHaveLength(1);
    expect(outputs[0]?.event).toMatchObject({ type: "commandOutput", name: "status" });
    expect(JSON.stringify(outputs[0]?.event)).toContain(`Project: ${w.repo.root}`);
    expect(result).toMatchObject({ type: "result", outcome: "completed" });
    expect(w.provider.requests).toHaveLength(0);
  });

  it("a custom command runs as a turn with its expanded body", async () => {
    w = await world({
      format: "anthropic",
      files: { ".claude/commands/fix-issue.md": "---\ndescription: Fix\n---\nFix issue #$1 now." },
    });
    w.provider.push(main(reply.text("fixed it")));
    const run = await w.run(["-p", "/fix-issue 123"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("fixed it\n");
    const body = JSON.stringify(w.mainRequests()[0]?.body);
    expect(body).toContain("/fix-issue 123");
    expect(body).toContain('<command name=\\"fix-issue\\">\\nFix issue #123 now.\\n</command>');
  });

  it("an unknown command is a notice with close matches, exit 2, no model request", async () => {
    w = await world({ format: "anthropic" });
    const run = await w.run(["-p", "/stauts"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown command /stauts. Did you mean /status?");
    expect(run.stdout).toBe("");
    expect(w.provider.requests).toHaveLength(0);
  });
});
