import { writeFile } from "node:fs/promises";
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

function mapOf(request: ModelRequest | undefined): string | undefined {
  return request?.system.find((s) => s.id === "repoMap")?.text;
}

const titles = when((r) => JSON.stringify(r.system).includes("title"), reply.text("Title"));

describe("repo map", () => {
  it("joins the system prompt once ready and stays byte-identical until a compaction rebuilds it", async () => {
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

    const [first, ...rest] = h.model.requests;
    const map = mapOf(first);
    expect(map).toContain("src/config.ts:");
    expect(map).toContain("5: export function parseConfig(text: string): Config {");
    expect(map).not.toContain("builtOutput");
    expect(map).not.toContain("ignoredByGit");
    expect(first?.system.at(-1)?.id).toBe("repoMap");
    for (const request of rest)
      expect(JSON.stringify(request.system)).toBe(JSON.stringify(first?.system));
    const status = h.session.repoMap();
    expect(status).toMatchObject({ state: "active", files: 5 });
    expect(status.tokens).toBeGreaterThan(0);
    expect(status.tokens).toBeLessThanOrEqual(1000);

    // A change to the files does not touch the prompt until a rebuild point.
    await writeFile(h.repo.path("src/lonely.ts"), "export function freshlyAdded(): void {}\n");
    h.model.push(reply.text("still the same map"));
    await h.session.run("anything new?");
    expect(mapOf(h.model.requests.at(-1))).toBe(map);

    // A compaction is a rebuild point: the next request after the rebuild has the new map.
    h.model.push(reply.error("contextOverflow", "prompt is too long"), reply.text("compacted"));
    await h.session.run("keep going");
    h.recorder.expectSubsequence(["compacted", { type: "turnFinished", outcome: "completed" }]);
    expect((await h.session.repoMapIdle()).parsed).toBe(1);
    h.model.push(reply.text("new map"));
    await h.session.run("and now?");
    const rebuilt = mapOf(h.model.requests.at(-1));
    expect(rebuilt).toContain("freshlyAdded");
    expect(rebuilt).not.toContain("lonelyHelper");
  }, 60_000);

  it("is rebuilt when trusting the workspace reloads the settings", async () => {
    h = await harness({
      files: project,
      script: [],
      overrides: { mode: "bypass" },
      repoMap: true,
    });
    h.model.push(reply.text("first"));
    await h.session.run("hello");
    await h.session.repoMapIdle();
    h.model.push(reply.text("with the map"));
    await h.session.run("again");
    const map = mapOf(h.model.requests.at(-1));
    expect(map).toContain("parseConfig");
    await writeFile(h.repo.path("src/fresh.ts"), "export function freshlyTrusted(): void {}\n");
    h.model.push(reply.text("same map"));
    await h.session.run("anything new?");
    expect(mapOf(h.model.requests.at(-1))).toBe(map);

    h.session.send({ type: "trustWorkspace", trusted: true });
    await h.session.idle();
    expect((await h.session.repoMapIdle()).parsed).toBe(1);
    h.model.push(reply.text("new map"));
    await h.session.run("and now?");
    expect(mapOf(h.model.requests.at(-1))).toContain("freshlyTrusted");
  }, 60_000);

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
