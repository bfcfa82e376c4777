import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { main, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

const KEY = "sk-e2e-secret-0123456789abcdef";

/** Runs a hanging tool call under `zeng -p`, sends SIGINT twice, and times the exit. */
async function interruptTwice(w: World, input: { name: string; input: object }) {
  w.provider.push(main(reply.toolCall(input.name, input.input)));
  const child = w.spawn([
    "-p",
    "hang",
    "--output-format",
    "stream-json",
    "--permission-mode",
    "bypass",
  ]);
  await child.waitForLine((l) => l.includes('"toolStarted"'), 40_000);
  child.child.kill("SIGINT");
  // The first SIGINT cancels; the second must end the process whatever the tool is doing.
  const started = Date.now();
  child.child.kill("SIGINT");
  const run = await child.done;
  return { run, ms: Date.now() - started };
}

describe("a second SIGINT exits at once", () => {
  it("even while a Read waits on a FIFO that no one writes", async () => {
    w = await world({ format: "anthropic" });
    execFileSync("mkfifo", [w.repo.path("pipe")]);
    const { run, ms } = await interruptTwice(w, { name: "Read", input: { file_path: "pipe" } });
    expect(run.code).toBe(130);
    expect(ms).toBeLessThan(5_000);
  }, 60_000);

  it("even while a Bash command sleeps", async () => {
    w = await world({ format: "anthropic" });
    const { run, ms } = await interruptTwice(w, {
      name: "Bash",
      input: { command: "trap '' INT TERM; sleep 1000" },
    });
    expect(run.code).toBe(130);
    expect(ms).toBeLessThan(5_000);
  }, 60_000);
});

describe("the API key is out of reach of commands", () => {
  it("`env` in a Bash command does not show it", async () => {
    w = await world({ format: "anthropic", apiKey: KEY });
    w.provider.push(
      main(
        reply.toolCall("Bash", {
          command: "env > env.txt; echo ok",
        }),
      ),
      main(reply.text("done")),
    );
    const run = await w.run(["-p", "look", "--permission-mode", "bypass"], {
      ZENGINE_API_KEY: KEY,
    });
    expect(run.code, run.stderr).toBe(0);
    const env = await readFile(w.repo.path("env.txt"), "utf8");
    expect(env).toContain("ZENGINE_BASE_URL=");
    expect(env).not.toContain(KEY);
  }, 60_000);
});
