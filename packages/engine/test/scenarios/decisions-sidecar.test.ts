import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EngineEventOf } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { decisionModel } from "../decision-model.js";
import { type Harness, harness, withTempDir } from "../harness.js";

// `[decisions] model / sidecar_command / sidecar_args`: the configured sidecar program is
// started through the spawn door, asked instead of the fast model, shared by the sessions with
// the same launch settings, and stopped by the engine's shutdown.

const SIDECAR = fileURLToPath(new URL("../fixtures/decision-sidecar.mjs", import.meta.url));

function settings(command: string, log: string): string {
  return [
    "[decisions]",
    `sidecar_command = ${JSON.stringify(command)}`,
    `sidecar_args = ${JSON.stringify([SIDECAR, log])}`,
    'model = "tiny-decider"',
    "timeout_ms = 2000",
    "[experimental]",
    'decisions_route = "on"',
  ].join("\n");
}

const questions = async (log: string) =>
  (await readFile(log, "utf8").catch(() => ""))
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { pid: number; model: string | null });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function open(log: string, command = process.execPath) {
  const fast = decisionModel("eager");
  h = await harness({
    files: { "README.md": "# demo\n" },
    script: [reply.text("one"), reply.text("two"), reply.text("three")],
    userSettings: settings(command, log),
    fastClient: fast,
  });
  return { h, fast };
}

const routes = (x: Harness) =>
  x.recorder.envelopes
    .map((e) => e.event)
    .filter((e): e is EngineEventOf<"routeChosen"> => e.type === "routeChosen");

describe("the configured decision sidecar", { timeout: 60_000 }, () => {
  it("is started, asked instead of the fast model, shared by sessions and stopped by shutdown", async () => {
    await withTempDir(async (dir) => {
      const log = join(dir, "questions.jsonl");
      const { h, fast } = await open(log);
      await h.session.run("rename one variable");
      const second = await h.engine.createSession(h.repo.root);
      await second.run("and another");
      // The route came from the sidecar program (the fast model would answer "small task").
      expect(routes(h).map((r) => r.route.reason)).toEqual([
        "the sidecar says small",
        "the sidecar says small",
      ]);
      expect(fast.requests.some((r) => JSON.stringify(r.system).includes("reasoning effort"))).toBe(
        false,
      );
      const asked = await questions(log);
      expect(asked).toHaveLength(2);
      // One program for both sessions, told the configured model.
      expect(new Set(asked.map((q) => q.pid)).size).toBe(1);
      expect(asked[0]?.model).toBe("tiny-decider");
      const pid = asked[0]?.pid ?? 0;
      expect(alive(pid)).toBe(true);
      await h.engine.shutdown();
      expect(alive(pid)).toBe(false);
    });
  });

  it("that cannot start gives one notice and abstains: the turn is as with the feature off", async () => {
    await withTempDir(async (dir) => {
      const { h } = await open(join(dir, "q.jsonl"), join(dir, "no-such-sidecar"));
      const first = await h.session.run("rename one variable");
      const second = await h.session.run("and another");
      expect([first.outcome, second.outcome]).toEqual(["completed", "completed"]);
      expect(routes(h)).toEqual([]);
      await h.recorder.waitFor("notice", { code: "decisions.sidecar" });
      const notices = h.recorder.ofType("notice").filter((n) => n.code === "decisions.sidecar");
      expect(notices).toHaveLength(1);
      expect(notices[0]?.message).toContain("no-such-sidecar");
    });
  });
});
