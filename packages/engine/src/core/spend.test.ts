import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths, TrustStore } from "@z-engine/config";
import { type EventEnvelope, type ModelEvent, newTurnId } from "@z-engine/protocol";
import { FileSessionStore, readLog } from "@z-engine/store";
import { createFixtureRepo, type FixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEngineSession } from "../session/open.js";
import type { EngineSession } from "../session/session.js";
import { createRedactor } from "../util/secrets.js";
import { capReached, meteredClient, recordSpend } from "./spend.js";
import { newTurnState, TurnGitWork } from "./turn-state.js";

let repo: FixtureRepo;
let home: string;
let session: EngineSession | undefined;
const events: EventEnvelope[] = [];

/** A session whose every model costs $1 per token, with `settings` as the user's settings. */
async function openSession(settings = ""): Promise<EngineSession> {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
  const paths = resolvePaths({
    ...env,
    ZENGINE_CONFIG_HOME: join(home, "config"),
    ZENGINE_HOME: join(home, "data"),
  });
  await mkdir(paths.configDir, { recursive: true });
  await writeFile(paths.userSettingsFile, settings);
  session = await createEngineSession(
    {
      paths,
      env,
      childEnv: env,
      redactor: createRedactor([]),
      sink: (e) => events.push(e),
      store: new FileSessionStore({ dataDir: paths.dataDir }),
      clientFactory: () => new ScriptedModel([]),
      catalogFor: () => ({
        info: () => ({ contextWindow: 200_000, maxOutputTokens: 8_000, vision: true }),
        price: (_m, u) => ({ ...u, costUsd: u.input + u.output + u.cacheRead + u.cacheWrite }),
      }),
      onSettings: async () => {},
      hostSettings: undefined,
      checkpoints: false,
      trustStore: new TrustStore(join(paths.dataDir, "trust.json")),
      extraTools: [],
      shell: undefined,
      sandbox: null,
      headless: true,
      repoMap: false,
      clock: Date.now,
      homeDir: home,
      parent: new AbortController().signal,
    },
    repo.root,
  );
  return session;
}

const request = (model: string) => ({
  model,
  system: [],
  tools: [],
  messages: [],
  cacheMarks: [],
  maxTokens: 16,
});

async function drain(stream: AsyncIterable<ModelEvent>, upTo = Infinity): Promise<ModelEvent[]> {
  const out: ModelEvent[] = [];
  for await (const event of stream) {
    out.push(event);
    if (out.length >= upTo) break;
  }
  return out;
}

async function usageRecords(s: EngineSession) {
  const { records } = await readLog(s.logPath);
  return records.filter((r) => r.kind === "usage");
}

beforeEach(async () => {
  events.length = 0;
  repo = await createFixtureRepo({ files: { "a.txt": "a\n" } });
  home = await mkdtemp(join(tmpdir(), "zeng-spend-"));
});
afterEach(async () => {
  await session?.close();
  session = undefined;
  await repo.dispose();
  await rm(home, { recursive: true, force: true });
});

describe("meteredClient", () => {
  it("spends what was reported when the caller stops reading early", async () => {
    const s = await openSession();
    const inner = new ScriptedModel([
      { events: [{ type: "usage", usage: { input: 3, output: 0, cacheRead: 0, cacheWrite: 0 } }] },
    ]);
    inner.push({
      events: [
        { type: "usage", usage: { input: 2, output: 1, cacheRead: 0, cacheWrite: 0 } },
        { type: "textDelta", text: "partial" },
        { type: "textDelta", text: " answer" },
      ],
    });
    const client = meteredClient(s, inner, () => ({ source: "side" }));
    await drain(client.stream(request("f")));
    await drain(client.stream(request("f")), 2);
    expect(s.totalUsage.costUsd).toBe(6);
    expect((await usageRecords(s)).map((r) => r.usage.costUsd)).toEqual([3, 3]);
    expect(events.filter((e) => e.event.type === "costUpdated")).toHaveLength(2);
  });

  it("does not send a call once the session's cap is reached, and says why", async () => {
    const s = await openSession("[agents]\nsession_cost_cap_usd = 5\n");
    await recordSpend(
      s,
      "m",
      { input: 5, output: 0, cacheRead: 0, cacheWrite: 0 },
      { source: "title" },
    );
    const inner = new ScriptedModel([reply.text("never")]);
    const out = await drain(meteredClient(s, inner, () => ({})).stream(request("f")));
    expect(out).toEqual([
      {
        type: "error",
        error: { kind: "unknown", message: "not sent: the session reached its cost cap ($5.00)" },
      },
    ]);
    expect(inner.requests).toHaveLength(0);
  });

  it("records nothing for a call that used no tokens", async () => {
    const s = await openSession();
    await drain(
      meteredClient(s, new ScriptedModel([reply.text("free")]), () => ({})).stream(request("f")),
    );
    expect(await usageRecords(s)).toEqual([]);
    expect(s.totalUsage.costUsd).toBe(0);
  });
});

describe("recordSpend", () => {
  it("adds to a running turn, not to one that has ended, and always to the session", async () => {
    const s = await openSession();
    const turn = newTurnState(
      newTurnId(),
      new AbortController().signal,
      0,
      new TurnGitWork(async () => null),
    );
    const tokens = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };
    await recordSpend(s, "f", tokens, { source: "decisions", turn });
    turn.ended = true;
    await recordSpend(s, "f", tokens, { source: "decisions", turn });
    expect(turn.usage.costUsd).toBe(2);
    expect(s.totalUsage.costUsd).toBe(4);
    expect(s.state.fastSpend.get("decisions")?.costUsd).toBe(4);
    expect((await usageRecords(s)).map((r) => r.turnId)).toEqual([turn.turnId, turn.turnId]);
  });

  it("the turn's budget is reached by its own usage only", async () => {
    const s = await openSession();
    const turn = newTurnState(
      newTurnId(),
      new AbortController().signal,
      0,
      new TurnGitWork(async () => null),
    );
    const capped = { config: { ...s.config, turnCostCapUsd: 2 }, state: s.state };
    expect(capReached(capped, turn)).toBeUndefined();
    await recordSpend(s, "f", { input: 2, output: 0, cacheRead: 0, cacheWrite: 0 }, { turn });
    expect(capReached(capped, turn)).toBe("the turn reached its budget ($2.00)");
    expect(capReached(capped, undefined)).toBeUndefined();
  });
});
