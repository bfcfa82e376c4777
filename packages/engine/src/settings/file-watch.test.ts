import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileWatches } from "./file-watch.js";

let dir: string | undefined;
let watches: FileWatches | undefined;
afterEach(async () => {
  watches?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The next call of a watch's listener for `file`. */
function nextChange(w: FileWatches, file: string): { done: Promise<string>; stop: () => void } {
  let stop = () => {};
  const done = new Promise<string>((resolve) => {
    stop = w.watch(file, resolve);
  });
  return { done, stop };
}

describe("FileWatches", () => {
  it("sees a file created in folders that did not exist, and an editor's save by rename", async () => {
    dir = await mkdtemp(join(tmpdir(), "zeng-watch-"));
    watches = new FileWatches(10);
    const file = join(dir, "a", "b", "settings.toml");
    const first = nextChange(watches, file);
    await mkdir(join(dir, "a", "b"), { recursive: true });
    await writeFile(file, "x = 1\n");
    expect(await first.done).toBe(file);
    first.stop();
    expect(watches.size).toBe(0);

    const second = nextChange(watches, file);
    await writeFile(join(dir, "a", "b", "settings.toml.tmp"), "x = 2\n");
    await rename(join(dir, "a", "b", "settings.toml.tmp"), file);
    expect(await second.done).toBe(file);
  });

  it("shares one watch per file between listeners and ignores other files of the folder", async () => {
    dir = await mkdtemp(join(tmpdir(), "zeng-watch-"));
    watches = new FileWatches(10);
    const file = join(dir, "settings.toml");
    const heard: string[] = [];
    const stopA = watches.watch(file, () => heard.push("a"));
    const b = nextChange(watches, file);
    expect(watches.size).toBe(1);
    await writeFile(join(dir, "other.toml"), "y = 1\n");
    await writeFile(file, "x = 1\n");
    await b.done;
    expect(heard).toEqual(["a"]);
    stopA();
    b.stop();
    expect(watches.size).toBe(0);
  });
});
