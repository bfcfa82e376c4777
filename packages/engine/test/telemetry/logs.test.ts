import { Writable } from "node:stream";
import { reply } from "@z-engine/testkit";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, loginProject, walkthroughScript } from "../harness.js";

// A provider key in the engine's environment (the secret screen withholds its value) and a
// known-format token that is in no variable: neither may reach a log line.
const ENV_KEY = "sk-ant-api03-telemetryLogTestKey0123456789abcdef";
const LOOSE_TOKEN = `ghp_${"T".repeat(36)}`;

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** A pino logger at debug whose lines land, parsed, in `lines`. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  let raw = "";
  const destination = new Writable({
    write(chunk, _encoding, done) {
      raw += String(chunk);
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, destination), lines, raw: () => raw };
}

describe("the engine's logs", () => {
  it("carry the session and turn ids and no key", async () => {
    const { logger, lines, raw } = capturingLogger();
    h = await harness({
      files: loginProject,
      script: [],
      extraEnv: { ANTHROPIC_API_KEY: ENV_KEY },
      approve: ({ suggestedRules, toolName }) =>
        toolName === "Verify"
          ? { type: "allowSession", rule: suggestedRules[0] ?? "Bash(npm test:*)" }
          : { type: "allowOnce" },
      engine: { logger },
    });
    h.model.push(...walkthroughScript((p) => (h as Harness).repo.path(p)));
    const first = await h.session.run(`Fix the login test (my key is ${ENV_KEY}).`);
    h.model.push(
      reply.error("authentication", `HTTP 401: key ${ENV_KEY} rejected; also saw ${LOOSE_TOKEN}`),
    );
    const second = await h.session.run("Once more.");
    expect(second.outcome).toBe("failed");
    await h.session.close();

    const sessionId = h.session.id;
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.every((l) => l.sessionId === sessionId)).toBe(true);
    const turnEvents = [
      "turnStarted",
      "assistantFinished",
      "toolFinished",
      "checkRecorded",
      "turnFinished",
    ];
    const inTurn = lines.filter((l) => turnEvents.includes(String(l.event)));
    expect(new Set(inTurn.map((l) => l.turnId))).toEqual(new Set([first.turnId, second.turnId]));
    const events = lines.map((l) => l.event);
    expect(events).toEqual(
      expect.arrayContaining(["turnStarted", "toolFinished", "approvalRequested", "turnFinished"]),
    );
    const failed = lines.find((l) => l.event === "turnFinished" && l.turnId === second.turnId);
    expect(failed?.level).toBe(50);
    expect(String(failed?.reason)).toContain("[redacted]");
    expect(raw()).not.toContain(ENV_KEY);
    expect(raw()).not.toContain(LOOSE_TOKEN);
    expect(raw()).not.toContain("Fix the login test");
  });
});
