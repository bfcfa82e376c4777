import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { createProjectFileReader } from "@z-engine/host";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReminderQueue } from "@z-engine/context";
import { SessionRepoMap } from "./session-map.js";

// Issue 18: starting the worker, loading grammars and parsing take CPU the first request and
// the first round's tool calls should have, so the first build waits until the request after
// the first model response went out, or for a quiet moment.

let repo: FixtureRepo;
let data: string;
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent" };

beforeEach(async () => {
  repo = await createFixtureRepo({
    files: {
      "src/core.ts": "export function coreThing(): number {\n  return 1;\n}\n",
      "src/use.ts": 'import { coreThing } from "./core";\nexport const usesCore = coreThing();\n',
    },
  });
  data = await mkdtemp(join(tmpdir(), "repomap-start-"));
});
afterEach(async () => {
  await repo.dispose();
  await rm(data, { recursive: true, force: true });
});

let reminders: ReminderQueue;

function newMap(): SessionRepoMap {
  reminders = new ReminderQueue();
  return new SessionRepoMap({
    projectRoot: repo.root,
    cacheFile: join(data, "cache.json"),
    env,
    files: createProjectFileReader({ roots: [repo.root] }),
    tokens: () => 1000,
    messages: () => [],
    reminders,
    onProblem: () => {},
  });
}

describe("the first repo map build", { timeout: 30_000 }, () => {
  it("does not start before the first response: a session closed before it built nothing", async () => {
    const map = newMap();
    map.startAfterFirstResponse(60_000);
    expect(map.status().indexed).toBe(0);
    await map.close();
    expect(map.status().indexed).toBe(0);
    expect(existsSync(join(data, "cache.json"))).toBe(false);
  });

  it("waits out the first round: starts when the next request goes out, and joins the one after", async () => {
    const map = newMap();
    map.startAfterFirstResponse(60_000, 60_000);
    map.requestSent(); // the first request: nothing starts
    map.firstResponse(); // its tool calls run now: nothing starts yet
    map.firstResponse(); // idempotent
    await map.close();
    expect(map.status().indexed).toBe(0);
    expect(existsSync(join(data, "cache.json"))).toBe(false);

    const next = newMap();
    next.startAfterFirstResponse(60_000, 60_000);
    next.requestSent();
    next.firstResponse();
    next.requestSent(); // the first round's results went out
    const status = await next.whenIdle();
    expect(status).toMatchObject({ state: "ready", indexed: 2 });
    expect(reminders.drain()[0]?.text).toContain("coreThing");
    next.requestSent(); // no second build
    next.firstResponse();
    expect(next.status().state).toBe("active");
    await next.close();
  });

  it("starts by itself when no request follows the first response (a long tool call)", async () => {
    const map = newMap();
    map.startAfterFirstResponse(60_000, 10);
    map.firstResponse();
    expect(await map.whenIdle()).toMatchObject({ state: "ready", indexed: 2 });
    await map.close();
  });

  it("starts by itself when no response comes (a session that sits idle)", async () => {
    const map = newMap();
    map.startAfterFirstResponse(10);
    expect(await map.whenIdle()).toMatchObject({ state: "ready", indexed: 2 });
    await map.close();
  });
});
