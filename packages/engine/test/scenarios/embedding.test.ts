import { access, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine, type Engine, formatEvent, type SessionHandle } from "@z-engine/engine";
import { type EventEnvelope, newMessageId, newTurnId } from "@z-engine/protocol";
import {
  createFixtureRepo,
  createTestEngine,
  type FixtureRepo,
  reply,
  ScriptedModel,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { loginProject } from "../harness.js";

// The API a host sees: an ephemeral engine, per-session events, turn ids, trust and
// verification from code, and per-session prices.

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function fixture(files = loginProject): Promise<FixtureRepo> {
  const repo = await createFixtureRepo({ files });
  cleanup.push(() => repo.dispose());
  return repo;
}

async function engineWith(model: ScriptedModel, extra: Parameters<typeof createEngine>[0] = {}) {
  const home = await mkdtemp(join(tmpdir(), "zeng-embed-home-"));
  cleanup.push(() => rm(home, { recursive: true, force: true }));
  const titles = new ScriptedModel([1, 2, 3, 4].map(() => reply.text("A title")));
  const engine: Engine = await createEngine({
    ephemeral: true,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
    homeDir: home,
    clientFactory: ({ role }) => (role === "fast" ? titles : model),
    ...extra,
  });
  cleanup.push(() => engine.shutdown());
  return { engine, home };
}

describe("embedding: the engine as a host sees it", { timeout: 30_000 }, () => {
  it("gives two concurrent run() callers the summary of their own turn", async () => {
    const t = await createTestEngine({
      createEngine,
      files: loginProject,
      script: [reply.text("first answer"), reply.text("second answer")],
    });
    cleanup.push(() => t.dispose());
    const [a, b] = await Promise.all([t.session.run("one"), t.session.run("two")]);
    expect(a.turnId).not.toBe(b.turnId);
    for (const e of [a, b]) expect(e.outcome).toBe("completed");
    // Each summary is the turn whose prompt its caller sent.
    const started = t.recorder.ofType("turnStarted");
    expect(started.find((e) => e.turnId === a.turnId)?.prompt).toBe("one");
    expect(started.find((e) => e.turnId === b.turnId)?.prompt).toBe("two");
  });

  it("returns the turn id from send and resolves turnEnd for that turn", async () => {
    const t = await createTestEngine({
      createEngine,
      files: loginProject,
      script: [reply.text("hello")],
    });
    cleanup.push(() => t.dispose());
    const id = t.session.send({ type: "submit", text: "hi" });
    expect(id).toMatch(/^turn_/);
    const summary = await t.session.turnEnd(id as NonNullable<typeof id>);
    expect(summary.turnId).toBe(id);
  });

  it("delivers a session's events to its onEvent and to events(), not another session's", async () => {
    const model = new ScriptedModel([reply.text("for a"), reply.text("for b")]);
    const { engine } = await engineWith(model);
    const seenA: EventEnvelope[] = [];
    const a = await engine.createSession((await fixture()).root, { onEvent: (e) => seenA.push(e) });
    const b = await engine.createSession((await fixture()).root);
    const fromB: EventEnvelope[] = [];
    const reading = (async () => {
      for await (const e of b.events()) fromB.push(e);
    })();
    await a.run("a");
    await b.run("b");
    await b.close();
    await reading; // the loop ends when the session closes
    expect(seenA.every((e) => e.sessionId === a.id)).toBe(true);
    expect(seenA.map((e) => e.event.type)).toContain("turnFinished");
    expect(fromB.length).toBeGreaterThan(0);
    expect(fromB.every((e) => e.sessionId === b.id)).toBe(true);
    expect(fromB.map((e) => e.event.type)).toContain("turnFinished");
  });

  it("ephemeral: writes nothing to the user's folders and removes its own on shutdown", async () => {
    const model = new ScriptedModel([reply.text("ok")]);
    const { engine, home } = await engineWith(model);
    const repo = await fixture();
    const session = await engine.createSession(repo.root);
    await session.run("hi");
    await engine.trustFolder(repo.root);
    const data = join(session.logPath, "..", "..", "..");
    await engine.shutdown();
    expect(await readdir(home)).toEqual([]);
    await expect(access(data)).rejects.toThrow();
  });

  it("trusted: true and verification: auto run the checks and end Verified, without trust.json", async () => {
    const repo = await fixture();
    const model = new ScriptedModel([
      reply.toolCall("Read", { file_path: repo.path("src/auth/token.js") }),
      reply.toolCall("Edit", {
        file_path: repo.path("src/auth/token.js"),
        old_string: "now > token.expiresAt",
        new_string: "now >= token.expiresAt",
      }),
      reply.text("Fixed."),
    ]);
    const { engine } = await engineWith(model);
    // The automatic check is a command: the gate asks, and the host allows it once.
    const session: SessionHandle = await engine.createSession(repo.root, {
      trusted: true,
      verification: "auto",
      mode: "acceptEdits",
      onEvent: ({ event }) => {
        if (event.type === "approvalRequested")
          queueMicrotask(() =>
            session.send({
              type: "resolveApproval",
              approvalId: event.approvalId,
              decision: { type: "allowOnce" },
            }),
          );
      },
    });
    const summary = await session.run("fix the login test");
    expect(summary.badge.status).toBe("verified");
    await expect(access(join(session.logPath, "..", "..", "..", "trust.json"))).rejects.toThrow();
  });

  it("says why auto checks will not run in an untrusted folder", async () => {
    const model = new ScriptedModel([]);
    const notices: string[] = [];
    const { engine } = await engineWith(model, { settings: { verification: { mode: "auto" } } });
    await engine.createSession((await fixture()).root, {
      onEvent: ({ event }) => {
        if (event.type === "notice") notices.push(event.code);
      },
    });
    expect(notices).toContain("verification.untrusted");
  });

  it("prices each session with its own project's [pricing]", async () => {
    const priced = (price: number) => ({
      ...loginProject,
      ".z-engine/settings.toml": `[pricing."claude-sonnet-5-5"]\ninput = ${price}\noutput = 0\n`,
    });
    const usage = { usage: { input: 1_000_000, output: 0 } };
    const model = new ScriptedModel([reply.text("a", usage), reply.text("b", usage)]);
    const { engine } = await engineWith(model);
    const cheap = await engine.createSession((await fixture(priced(1))).root, { trusted: true });
    const dear = await engine.createSession((await fixture(priced(7))).root, { trusted: true });
    const first = await cheap.run("a");
    const second = await dear.run("b");
    expect(first.usage.costUsd).toBeCloseTo(1);
    expect(second.usage.costUsd).toBeCloseTo(7);
  });

  it("holds many sessions open at once without a listener-leak warning", async () => {
    const repo = await fixture();
    const { engine } = await engineWith(new ScriptedModel());
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
      const sessions: SessionHandle[] = [];
      for (let i = 0; i < 12; i++) sessions.push(await engine.createSession(repo.root));
      // Node reports a listener leak on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
      expect(sessions).toHaveLength(12);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("formatEvent prints a line the way the CLI's text output does", () => {
    const ids = { turnId: newTurnId(), userMessageId: newMessageId() };
    expect(formatEvent({ type: "notice", level: "warning", code: "x", message: "careful" })).toBe(
      "zeng: warning: careful",
    );
    expect(formatEvent({ type: "turnStarted", ...ids, prompt: "hi" })).toBeUndefined();
  });
});
