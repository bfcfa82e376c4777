import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_MAP_HEADER, ReminderQueue } from "@z-engine/context";
import { type Message, newMessageId, newToolCallId } from "@z-engine/protocol";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { createProjectFileReader } from "@z-engine/host";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { focusFrom } from "./focus.js";
import { listProjectFiles } from "./project-files.js";
import { repoMapKey } from "./map-status.js";
import { SessionRepoMap } from "./session-map.js";

let repo: FixtureRepo;
let data: string;
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent" };

beforeEach(async () => {
  repo = await createFixtureRepo({
    files: {
      "src/core.ts": "export function coreThing(): number {\n  return 1;\n}\n",
      "src/use.ts": 'import { coreThing } from "./core";\nexport const usesCore = coreThing();\n',
      ".gitignore": "secret/\n",
      "secret/hidden.ts": "export function hiddenThing() {}\n",
      ".z-engine/worktrees/w1/src/copy.ts": "export function worktreeCopy() {}\n",
    },
  });
  data = await mkdtemp(join(tmpdir(), "repomap-data-"));
});
afterEach(async () => {
  await repo.dispose();
  await rm(data, { recursive: true, force: true });
});

function mapFor(tokens = 1000, messages: Message[] = []) {
  const problems: string[] = [];
  const reminders = new ReminderQueue();
  const map = new SessionRepoMap({
    projectRoot: repo.root,
    cacheFile: join(data, "cache.json"),
    env,
    files: createProjectFileReader({ roots: [repo.root] }),
    tokens: () => tokens,
    messages: () => messages,
    reminders,
    onProblem: (p) => problems.push(p),
    workerFrom: 0,
  });
  return { map, problems, reminders };
}

/** The map reminders a drained queue gave, as text. */
function maps(reminders: ReminderQueue): string[] {
  return reminders
    .drain()
    .map((b) => b.text)
    .filter((t) => t.startsWith(`<system-reminder>\n${REPO_MAP_HEADER}`));
}

describe("listProjectFiles", { timeout: 30_000 }, () => {
  it("lists what git keeps, without ignored files or the engine's folder", async () => {
    const files = await listProjectFiles(repo.root, env);
    expect(files).toContain("src/core.ts");
    expect(files.some((f) => f.startsWith("secret/"))).toBe(false);
    expect(files.some((f) => f.startsWith(".z-engine/"))).toBe(false);
  });

  it("walks a folder outside git, skipping hidden and build folders", async () => {
    const plain = await mkdtemp(join(tmpdir(), "repomap-plain-"));
    await mkdir(join(plain, "lib"));
    await mkdir(join(plain, "node_modules", "x"), { recursive: true });
    await mkdir(join(plain, ".cache"));
    await writeFile(join(plain, "lib", "a.py"), "def a():\n  pass\n");
    await writeFile(join(plain, "node_modules", "x", "i.js"), "");
    await writeFile(join(plain, ".cache", "c.js"), "");
    expect(await listProjectFiles(plain, env)).toEqual(["lib/a.py"]);
    await rm(plain, { recursive: true, force: true });
  });
});

describe("SessionRepoMap", { timeout: 30_000 }, () => {
  it("builds in a worker thread and queues the map as a reminder once built", async () => {
    const { map, reminders } = mapFor();
    expect(map.thread).toBe("worker");
    map.start();
    expect(map.status().state).toBe("building");
    expect(reminders.size).toBe(0);
    expect((await map.whenIdle()).state).toBe("ready");
    expect(reminders.size).toBe(1);
    const [text] = maps(reminders);
    expect(text).toContain("coreThing");
    expect(map.status()).toMatchObject({ state: "active", files: 2 });
    expect(map.status().tokens).toBeGreaterThan(0);
    await map.close();
  });

  it("queues nothing more until a rebuild, even when files change; a rebuild queues the new map", async () => {
    const { map, reminders } = mapFor();
    map.start();
    await map.whenIdle();
    expect(maps(reminders)).toHaveLength(1);
    await writeFile(repo.path("src/core.ts"), "export function renamedThing() {}\n");
    expect(reminders.size).toBe(0);
    map.rebuild();
    expect(reminders.size).toBe(0);
    await map.whenIdle();
    const [second] = maps(reminders);
    expect(second).toContain("renamedThing");
    expect(reminders.wasDelivered(repoMapKey(2))).toBe(true);
    expect(map.status()).toMatchObject({ state: "active", indexed: 2, parsed: 1 });
    await map.close();
  });

  it("queues the last map again after a rewind dropped the message carrying it, not while one is kept", async () => {
    const messages: Message[] = [];
    const { map, reminders } = mapFor(1000, messages);
    map.start();
    await map.whenIdle();
    const [first] = maps(reminders);
    expect(first).toContain("coreThing");
    // The rewind dropped every message: the session reset its reminders, the map is gone.
    reminders.reset();
    map.rewound();
    expect(map.status().state).toBe("ready");
    const [again] = maps(reminders);
    expect(again).toBe(first);
    expect(map.status().state).toBe("active");
    // A rewind that keeps a message showing the map queues nothing.
    messages.push({
      id: newMessageId(),
      role: "user",
      content: [{ type: "text", text: first ?? "" }],
    });
    reminders.reset();
    map.rewound();
    expect(reminders.size).toBe(0);
    expect(map.status().state).toBe("active");
    await map.close();
  });

  it("adds no map to a resumed conversation that already shows one, until a rebuild", async () => {
    const messages: Message[] = [
      {
        id: newMessageId(),
        role: "user",
        content: [
          { type: "text", text: "hi" },
          {
            type: "text",
            text: `<system-reminder>\n${REPO_MAP_HEADER}\n\nsrc/old.ts:\n  1: export function old() {}\n</system-reminder>`,
          },
        ],
      },
    ];
    const { map, reminders } = mapFor(1000, messages);
    map.start();
    expect(await map.whenIdle()).toMatchObject({ state: "active", files: 1, definitions: 1 });
    expect(reminders.size).toBe(0);
    map.rebuild();
    await map.whenIdle();
    expect(maps(reminders)[0]).toContain("coreThing");
    await map.close();
  });

  it("is off when the setting is 0", async () => {
    const { map, reminders } = mapFor(0);
    map.start();
    expect(await map.whenIdle()).toMatchObject({ state: "off", tokens: 0 });
    expect(reminders.size).toBe(0);
    await map.close();
  });

  it("stops a running build when closed, quietly", async () => {
    const { map, problems, reminders } = mapFor();
    map.start();
    await map.close();
    expect(problems).toEqual([]);
    expect(reminders.size).toBe(0);
    expect(map.status().state).not.toBe("active");
  });

  it("builds on the session's thread when there is no worker script", async () => {
    const { reminders } = mapFor();
    const map = new SessionRepoMap({
      projectRoot: repo.root,
      cacheFile: join(data, "cache.json"),
      env,
      files: createProjectFileReader({ roots: [repo.root] }),
      tokens: () => 1000,
      messages: () => [],
      reminders,
      onProblem: () => {},
      script: null,
    });
    expect(map.thread).toBe("main");
    map.start();
    await map.whenIdle();
    expect(maps(reminders)[0]).toContain("coreThing");
    await map.close();
  });
});

describe("focusFrom", () => {
  it("takes files from tool calls inside the project and text from user messages", () => {
    const messages: Message[] = [
      { id: newMessageId(), role: "user", content: [{ type: "text", text: "fix coreThing" }] },
      {
        id: newMessageId(),
        role: "assistant",
        content: [
          {
            type: "toolUse",
            id: newToolCallId(),
            name: "Read",
            input: { file_path: join(repo.root, "src/core.ts") },
          },
          {
            type: "toolUse",
            id: newToolCallId(),
            name: "Grep",
            input: { pattern: "x", path: "src" },
          },
          {
            type: "toolUse",
            id: newToolCallId(),
            name: "Read",
            input: { file_path: "/etc/passwd" },
          },
          { type: "text", text: "assistant words are not the user's" },
        ],
      },
    ];
    expect(focusFrom(repo.root, messages)).toEqual({
      files: ["src", "src/core.ts"],
      text: "fix coreThing",
    });
  });
});
