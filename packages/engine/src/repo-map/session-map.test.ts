import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Message, newMessageId, newToolCallId, type SystemSection } from "@z-engine/protocol";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { focusFrom } from "./focus.js";
import { listProjectFiles } from "./project-files.js";
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

const base: SystemSection[] = [{ id: "base", text: "You are a coding agent.", cacheable: true }];

function mapFor(tokens = 1000, messages: Message[] = []) {
  const problems: string[] = [];
  const map = new SessionRepoMap({
    projectRoot: repo.root,
    cacheFile: join(data, "cache.json"),
    env,
    tokens: () => tokens,
    messages: () => messages,
    onProblem: (p) => problems.push(p),
  });
  return { map, problems };
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
  it("never makes a request wait: before the build ends the sections are the base ones", async () => {
    const { map } = mapFor();
    map.start();
    expect(map.system(base)).toEqual(base);
    expect(map.status().state).toBe("building");
    expect((await map.whenIdle()).state).toBe("ready");
    const joined = map.system(base);
    expect(joined.at(-1)?.id).toBe("repoMap");
    expect(joined.at(-1)?.text).toContain("coreThing");
    expect(map.status().state).toBe("active");
  });

  it("keeps the same sections until a rebuild, even when files change", async () => {
    const { map } = mapFor();
    map.start();
    await map.whenIdle();
    const first = map.system(base);
    await writeFile(repo.path("src/core.ts"), "export function renamedThing() {}\n");
    expect(map.system(base)).toBe(first);
    map.rebuild();
    expect(map.system(base)).toBe(first);
    await map.whenIdle();
    const second = map.system(base);
    expect(second.at(-1)?.text).toContain("renamedThing");
    expect(map.status()).toMatchObject({ indexed: 2, parsed: 1 });
  });

  it("is off when the setting is 0", async () => {
    const { map } = mapFor(0);
    map.start();
    expect(await map.whenIdle()).toMatchObject({ state: "off", tokens: 0 });
    expect(map.system(base)).toEqual(base);
  });

  it("stops a running build when closed, quietly", async () => {
    const { map, problems } = mapFor();
    map.start();
    await map.close();
    expect(problems).toEqual([]);
    expect(map.status().state).not.toBe("active");
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
