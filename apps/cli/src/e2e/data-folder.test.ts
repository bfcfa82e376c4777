import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { type FakeProviderRequest, reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { isMain, main, type World, world } from "./cli.test.helpers.js";

// Issue 38, item 24: the data folder holds copies of the user's files (checkpoints, the repo
// map's cache) and their conversations: it and everything under it is the user's alone.

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

/** Every entry under `dir` whose mode lets the group or others in, as `path mode`. */
async function open(dir: string): Promise<string[]> {
  const loose: string[] = [];
  const walk = async (path: string) => {
    const stat = await lstat(path);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) loose.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of await readdir(path)) await walk(join(path, name));
  };
  await walk(dir);
  return loose;
}

describe("the data folder", () => {
  it("is 0700 with every file in it 0600 (or stricter) after sessions, checkpoints, the repo map, trust and the code cache", async () => {
    w = await world({
      format: "anthropic",
      files: {
        "package.json": '{ "name": "p", "version": "1.0.0" }\n',
        "src/app.ts": "export function hello(name: string): string {\n  return name;\n}\n",
        "secret.txt": "a private file\n",
      },
    });
    // An older install's folder, open to all: the engine closes it.
    const data = w.env.ZENGINE_HOME ?? "";
    await mkdir(data, { recursive: true });
    await chmod(data, 0o755);
    expect((await w.run(["trust"])).code).toBe(0);
    for (let i = 0; i < 2; i++) {
      // A Bash call makes a checkpoint; two runs write the code cache, then use it. The map
      // builds in the background and reaches the model as a reminder: the turn goes on with
      // harmless calls until it has, so the map's cache is written whatever the load.
      const prompt = `change it (run ${i})`;
      const ofRun = (r: FakeProviderRequest) =>
        isMain(r) && JSON.stringify(r.body).includes(prompt);
      const hasMap = (r: FakeProviderRequest) => JSON.stringify(r.body).includes("Repository map:");
      w.provider.push(
        when(ofRun, reply.toolCall("Bash", { command: "echo changed >> secret.txt" })),
        when((r: FakeProviderRequest) => ofRun(r) && hasMap(r), reply.text("done")),
        ...Array.from({ length: 40 }, () =>
          when(
            (r: FakeProviderRequest) => ofRun(r) && !hasMap(r),
            reply.toolCall("Bash", { command: "true" }),
          ),
        ),
        main(reply.text("more")),
      );
      const run = await w.run(["-p", prompt, "--permission-mode", "bypass"]);
      expect(run.code, run.stderr).toBe(0);
    }
    const names = await readdir(data);
    expect(names).toEqual(
      expect.arrayContaining(["sessions", "checkpoints", "trust.json", "repo-map", "code-cache"]),
    );
    expect(await open(data)).toEqual([]);
  }, 90_000);
});
