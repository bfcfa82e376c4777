import { readFile } from "node:fs/promises";
import { REDACTED } from "@z-engine/engine";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

const KEY = "sk-zeng-test-0123456789abcdef";
const AWS = "aws-secret-abcdefghijklmnop";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("the engine's keys stay out of tools, hooks, records and events", () => {
  it("gives shells and hooks an environment without keys, and redacts a key a tool prints", async () => {
    h = await harness({
      files: {
        "leak.txt": `the key is ${KEY}\n`,
        ".z-engine/settings.toml": "",
      },
      userSettings: [
        "[[hooks.PreToolUse]]",
        'matcher = "Read"',
        `command = 'env > "$CLAUDE_PROJECT_DIR/hook-env.txt"'`,
        "",
      ].join("\n"),
      extraEnv: {
        ZENGINE_API_KEY: KEY,
        AWS_SECRET_ACCESS_KEY: AWS,
        MY_SERVICE_API_KEY: "service-key-123456",
        ZENGINE_VISIBLE: "kept",
      },
      overrides: { mode: "bypass" },
      script: [
        reply.toolCalls([
          { name: "Bash", input: { command: "env > shell-env.txt; echo done" } },
          { name: "Read", input: { file_path: "leak.txt" } },
          { name: "Bash", input: { command: "cat leak.txt" } },
        ]),
        reply.text("ok"),
      ],
    });
    await h.session.run("look around");
    const shellEnv = await h.repo.read("shell-env.txt");
    const hookEnv = await h.repo.read("hook-env.txt");
    for (const env of [shellEnv, hookEnv]) {
      expect(env).toContain("ZENGINE_VISIBLE=kept");
      expect(env).not.toContain("ZENGINE_API_KEY");
      expect(env).not.toContain("AWS_SECRET_ACCESS_KEY");
      expect(env).not.toContain("MY_SERVICE_API_KEY");
      expect(env).not.toContain(KEY);
    }
    // The tool output that holds the key is stored, emitted and sent on as [redacted].
    const events = JSON.stringify(h.recorder.envelopes);
    const log = await readFile(h.session.logPath, "utf8");
    const next = JSON.stringify(h.model.requests[1]?.messages ?? []);
    for (const seen of [events, log, next]) {
      expect(seen).not.toContain(KEY);
      expect(seen).toContain(`the key is ${REDACTED}`);
    }
  }, 30_000);
});
