import { writeFile } from "node:fs/promises";
import { REPO_MAP_HEADER } from "@z-engine/context";
import type { ModelRequest } from "@z-engine/protocol";
import { type FixtureFiles, reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** `parseConfig` is used by three files; `lonely.ts` is used by none. */
const project: FixtureFiles = {
  "src/config.ts":
    "export interface Config {\n  name: string;\n}\n\nexport function parseConfig(text: string): Config {\n  return { name: text };\n}\n",
  "src/a.ts": 'import { parseConfig } from "./config";\nexport const configA = parseConfig("a");\n',
  "src/b.ts": 'import { parseConfig } from "./config";\nexport const configB = parseConfig("b");\n',
  "src/c.ts": 'import { parseConfig } from "./config";\nexport const configC = parseConfig("c");\n',
  "src/lonely.ts": "export function lonelyHelper(): number {\n  return 1;\n}\n",
  "dist/bundle.js": "export function builtOutput() {}\n",
  ".gitignore": "ignored/\n",
  "ignored/secret.ts": "export function ignoredByGit() {}\n",
};

const MAP_START = `<system-reminder>\n${REPO_MAP_HEADER}`;

/** The repo maps a request's user messages carry, oldest first. */
function mapsIn(request: ModelRequest | undefined): string[] {
  return (request?.messages ?? []).flatMap((m) =>
    m.role !== "user"
      ? []
      : m.content.flatMap((b) =>
          b.type === "text" && b.text.startsWith(MAP_START) ? [b.text] : [],
        ),
  );
}

const mapOf = (request: ModelRequest | undefined) => mapsIn(request).at(-1);

/** The part of a request the provider caches before the messages: system prompt and tools. */
const head = (r: ModelRequest | undefined) => JSON.stringify([r?.system, r?.tools]);

/** Each request's messages start with all of the previous request's (nothing earlier moved). */
function expectAppendOnly(requests: readonly ModelRequest[]): void {
  for (let i = 1; i < requests.length; i++) {
    const before = (requests[i - 1] as ModelRequest).messages.map((m) => JSON.stringify(m));
    const after = (requests[i] as ModelRequest).messages.map((m) => JSON.stringify(m));
    expect(after.slice(0, before.length)).toEqual(before);
  }
}

const titles = when((r) => JSON.stringify(r.system).includes("title"), reply.text("Title"));

describe("repo map", () => {
  it("joins the conversation as a reminder: system prompt and tools stay byte-identical, also across a compaction", async () => {
    h = await harness({
      files: project,
      script: [],
      fastScript: [titles, titles, reply.text("Summary: the user looked at the config.")],
      overrides: { mode: "bypass" },
      repoMap: true,
    });
    const ready = await h.session.repoMapIdle();
    expect(ready).toMatchObject({ state: "ready", indexed: 5 });
    h.model.push(reply.toolCall("Read", { file_path: "src/a.ts" }), reply.text("read it"));
    await h.session.run("where is parseConfig used?");
    h.model.push(reply.text("ok"));
    await h.session.run("thanks");

    const [first] = h.model.requests;
    const map = mapOf(first);
    expect(map).toContain("src/config.ts:");
    expect(map).toContain("5: export function parseConfig(text: string): Config {");
    expect(map).not.toContain("builtOutput");
    expect(map).not.toContain("ignoredByGit");
    // The map joined the first user message (it was ready); the system prompt has no map.
    expect(first?.messages[0]?.content.some((b) => b.type === "text" && b.text === map)).toBe(true);
    expect(JSON.stringify(first?.system)).not.toContain(REPO_MAP_HEADER);
    const status = h.session.repoMap();
    expect(status).toMatchObject({ state: "active", files: 5 });
    expect(status.tokens).toBeGreaterThan(0);
    expect(status.tokens).toBeLessThanOrEqual(1000);

    // A change to the files adds no map until a rebuild point.
    await writeFile(h.repo.path("src/lonely.ts"), "export function freshlyAdded(): void {}\n");
    h.model.push(reply.text("still the same map"));
    await h.session.run("anything new?");
    expect(mapsIn(h.model.requests.at(-1))).toEqual([map]);
    const beforeCompaction = [...h.model.requests];
    expectAppendOnly(beforeCompaction);

    // A compaction is a rebuild point: a request after the rebuild carries the new map.
    h.model.push(reply.error("contextOverflow", "prompt is too long"), reply.text("compacted"));
    await h.session.run("keep going");
    h.recorder.expectSubsequence(["compacted", { type: "turnFinished", outcome: "completed" }]);
    expect((await h.session.repoMapIdle()).parsed).toBe(1);
    h.model.push(reply.text("new map"));
    await h.session.run("and now?");
    const rebuilt = mapOf(h.model.requests.at(-1));
    expect(rebuilt).toContain("freshlyAdded");
    expect(rebuilt).not.toContain("lonelyHelper");
    // Between compactions every request extends the previous one; the system prompt and the
    // tools never changed, compaction included.
    for (const request of h.model.requests) expect(head(request)).toBe(head(first));
  }, 60_000);

  it("joins a later message when built after the first request, and again after a reload", async () => {
    h = await harness({
      files: project,
      script: [],
      overrides: { mode: "bypass" },
      repoMap: true,
    });
    h.model.push(reply.text("first"));
    await h.session.run("hello");
    expect(mapOf(h.model.requests[0])).toBeUndefined();
    await h.session.repoMapIdle();
    h.model.push(reply.text("with the map"));
    await h.session.run("again");
    const map = mapOf(h.model.requests.at(-1));
    expect(map).toContain("parseConfig");
    await writeFile(h.repo.path("src/fresh.ts"), "export function freshlyTrusted(): void {}\n");
    h.model.push(reply.text("same map"));
    await h.session.run("anything new?");
    expect(mapsIn(h.model.requests.at(-1))).toEqual([map]);

    h.session.send({ type: "trustWorkspace", trusted: true });
    await h.session.idle();
    expect((await h.session.repoMapIdle()).parsed).toBe(1);
    h.model.push(reply.text("new map"));
    await h.session.run("and now?");
    expect(mapOf(h.model.requests.at(-1))).toContain("freshlyTrusted");
    expectAppendOnly(h.model.requests);
    const first = h.model.requests[0];
    for (const request of h.model.requests) expect(head(request)).toBe(head(first));
  }, 60_000);

  it("joins again after a rewind of the conversation dropped the message that carried it", async () => {
    h = await harness({ files: project, script: [], overrides: { mode: "bypass" }, repoMap: true });
    await h.session.repoMapIdle();
    h.model.push(reply.text("first answer"));
    await h.session.run("where is parseConfig?");
    const map = mapOf(h.model.requests[0]);
    expect(map).toContain("src/config.ts:");
    const first = h.recorder.ofType("turnStarted")[0]?.userMessageId;
    if (!first) throw new Error("no first turn");
    h.session.send({ type: "rewind", messageId: first, restore: "conversation" });
    await h.session.idle();
    expect(h.recorder.ofType("rewound")).toHaveLength(1);
    h.model.push(reply.text("second answer"));
    await h.session.run("and now?");
    const after = h.model.requests.at(-1);
    expect(after?.messages).toHaveLength(1);
    expect(mapsIn(after)).toEqual([map]);
  }, 30_000);

  it("context.repo_map_tokens = 0 leaves the map out", async () => {
    h = await harness({
      files: project,
      script: [reply.text("no map")],
      userSettings: "[context]\nrepo_map_tokens = 0\n",
      repoMap: true,
    });
    expect((await h.session.repoMapIdle()).state).toBe("off");
    await h.session.run("hello");
    expect(mapOf(h.model.requests[0])).toBeUndefined();
  }, 30_000);

  it("a host that turns the repo map off gets no map and an off status", async () => {
    h = await harness({ files: project, script: [reply.text("no map")], repoMap: false });
    await h.session.run("hello");
    expect(mapOf(h.model.requests[0])).toBeUndefined();
    expect(h.session.repoMap()).toMatchObject({ state: "off", tokens: 0 });
  }, 30_000);
});
