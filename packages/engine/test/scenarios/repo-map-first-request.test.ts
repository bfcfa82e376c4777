import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO_MAP_HEADER } from "@z-engine/context";
import type { ModelRequest } from "@z-engine/protocol";
import { type FixtureFiles, reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionHandle } from "../../src/index.js";
import { type Harness, harness } from "../harness.js";

// Issue 45: the map where it helps most. A project whose map an earlier session built shows
// it in request one (from the snapshot, checked against the door now); a fresh small project
// has it by request two.

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const project: FixtureFiles = {
  "src/config.ts":
    "export interface Config {\n  name: string;\n}\n\nexport function parseConfig(text: string): Config {\n  return { name: text };\n}\n",
  "src/a.ts": 'import { parseConfig } from "./config";\nexport const configA = parseConfig("a");\n',
  "src/b.ts": 'import { parseConfig } from "./config";\nexport const configB = parseConfig("b");\n',
  "src/lonely.ts": "export function lonelyHelper(): number {\n  return 1;\n}\n",
};

const MAP_START = `<system-reminder>\n${REPO_MAP_HEADER}`;

/** The map the request's user messages carry (the newest), if any. */
function mapOf(request: ModelRequest | undefined): string | undefined {
  return (request?.messages ?? [])
    .flatMap((m) =>
      m.role !== "user"
        ? []
        : m.content.flatMap((b) =>
            b.type === "text" && b.text.startsWith(MAP_START) ? [b.text] : [],
          ),
    )
    .at(-1);
}

/** A first session that reads a file and answers; resolves once its map is built and kept. */
async function firstSession(): Promise<Harness> {
  const first = await harness({
    files: project,
    script: [],
    overrides: { mode: "bypass" },
    repoMap: true,
  });
  first.model.push(reply.toolCall("Read", { file_path: "src/a.ts" }), reply.text("read it"));
  const summary = await first.session.run("where is parseConfig used?");
  expect(summary.outcome).toBe("completed");
  await first.session.repoMapIdle();
  return first;
}

/** A second session in the same project and data folder, after the first closed. */
async function secondSession(first: Harness): Promise<SessionHandle> {
  await first.session.close();
  return first.engine.createSession(first.repo.root, { mode: "bypass" });
}

async function snapshotFile(first: Harness): Promise<string> {
  const dir = join(first.home, "data", "repo-map");
  const name = (await readdir(dir)).find((f) => f.endsWith(".map.json"));
  if (!name) throw new Error("no map snapshot was written");
  return join(dir, name);
}

describe("the repo map in the first requests", { timeout: 60_000 }, () => {
  it("a fresh small project has its map by the second request", async () => {
    h = await firstSession();
    const [one, two] = h.model.requests;
    expect(mapOf(one)).toBeUndefined();
    expect(mapOf(two)).toContain("src/config.ts:");
    expect(h.session.repoMap()).toMatchObject({ state: "active", source: "build" });
  });

  it("a second session in the same project has the map in its first request, from the cache", async () => {
    h = await firstSession();
    const built = mapOf(h.model.requests[1]);
    const second = await secondSession(h);
    const before = h.model.requests.length;
    h.model.push(reply.text("hello again"));
    expect((await second.run("hi")).outcome).toBe("completed");
    const request = h.model.requests[before];
    expect(mapOf(request)).toBe(built);
    // It joined the first user message; the system prompt has none.
    expect(request?.messages).toHaveLength(1);
    expect(JSON.stringify(request?.system)).not.toContain(REPO_MAP_HEADER);
    const status = second.repoMap();
    expect(status).toMatchObject({ state: "active", source: "cache" });
    expect(status.builtAt).toBeGreaterThan(0);
    const context = await second.command("context");
    expect(context.type === "output" && context.markdown).toMatch(
      /Repo map: active, [\d,]+ tokens \(\d+ files, \d+ definitions\), from the cache \(built \d+ s ago\)/,
    );
    await second.close();
  });

  it("a Read deny added between sessions keeps the denied file out of the cached map", async () => {
    h = await firstSession();
    expect(mapOf(h.model.requests[1])).toContain("src/config.ts:");
    await writeFile(
      join(h.home, "config", "settings.toml"),
      '[permissions]\ndeny = ["Read(src/config.ts)"]\n',
    );
    const second = await secondSession(h);
    const before = h.model.requests.length;
    h.model.push(reply.text("hello again"));
    await second.run("hi");
    const map = mapOf(h.model.requests[before]);
    expect(map).toBeDefined();
    expect(map).not.toContain("src/config.ts");
    expect(map).not.toContain("parseConfig(text");
    expect(second.repoMap()).toMatchObject({ source: "cache" });
    await second.close();
  });

  it("a corrupt snapshot gives no map in the first request and no crash; the build brings it by the second", async () => {
    h = await firstSession();
    await writeFile(await snapshotFile(h), '{"v":1,"root":');
    const second = await secondSession(h);
    const before = h.model.requests.length;
    h.model.push(reply.toolCall("Read", { file_path: "src/b.ts" }), reply.text("done"));
    expect((await second.run("hi")).outcome).toBe("completed");
    expect(mapOf(h.model.requests[before])).toBeUndefined();
    expect(mapOf(h.model.requests[before + 1])).toContain("src/config.ts:");
    expect(second.repoMap()).toMatchObject({ source: "build" });
    await second.close();
  });
});
