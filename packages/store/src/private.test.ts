import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSessionStore } from "./file-session-store.js";
import { msg, tempDir, userText } from "./test-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

async function modesUnder(root: string): Promise<Array<[string, number]>> {
  const out: Array<[string, number]> = [[root, (await stat(root)).mode & 0o777]];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) out.push(...(await modesUnder(path)));
    else out.push([path, (await stat(path)).mode & 0o777]);
  }
  return out;
}

describe("session files are private", () => {
  it("creates session folders 0700 and every file in them 0600", async () => {
    const store = new FileSessionStore({ dataDir: dir });
    const session = await store.create({ projectRoot: "/proj", title: "t" });
    await session.append(msg(userText("u1", "hello"), 5));
    await session.appendAgent("agent-1", msg(userText("u2", "sub"), 6));
    await session.artifacts.put("out.txt", "long output");
    await session.close();
    const modes = await modesUnder(join(dir, "sessions"));
    expect(modes.length).toBeGreaterThan(5);
    for (const [path, mode] of modes) {
      const isDir = (await stat(path)).isDirectory();
      expect([path, mode]).toEqual([path, isDir ? 0o700 : 0o600]);
    }
  });
});
