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

  it("a command walking its parents' /proc/<pid>/environ finds no key, and base64 of a key it prints is redacted", async () => {
    w = await world({
      format: "anthropic",
      apiKey: KEY,
      files: { "leak.txt": `the key is ${KEY}\n` },
    });
    // What a hostile `npm test` would do: read every ancestor's environment, encode it.
    const walk = [
      "pid=$$; : > found",
      "while [ \"$pid\" -gt 1 ]; do cat /proc/$pid/environ >> found 2>/dev/null; echo >> found; pid=$(awk '{print $4}' /proc/$pid/stat); done",
      "base64 found > found.b64",
      "base64 leak.txt",
    ].join("; ");
    w.provider.push(main(reply.toolCall("Bash", { command: walk })), main(reply.text("done")));
    const run = await w.run(["-p", "look", "--permission-mode", "bypass"], {
      ZENGINE_API_KEY: KEY,
    });
    expect(run.code, run.stderr).toBe(0);
    const found = Buffer.from(await readFile(w.repo.path("found.b64"), "utf8"), "base64").toString(
      "latin1",
    );
    // zeng's own environment was walked (its data folder is there), without the key.
    expect(found).toContain(`ZENGINE_HOME=${w.env.ZENGINE_HOME}`);
    expect(found).not.toContain(KEY);
    expect(found).not.toContain("ZENGINE_API_KEY=");
    // The base64 of the key in leak.txt reaches neither the model nor the log.
    const encoded = Buffer.from(`the key is ${KEY}\n`).toString("base64");
    const sent = JSON.stringify(w.mainRequests().at(-1)?.body);
    expect(sent).toContain("[redacted]");
    for (const form of [KEY, encoded, encoded.slice(4, 40)]) expect(sent).not.toContain(form);
  }, 60_000);
});
