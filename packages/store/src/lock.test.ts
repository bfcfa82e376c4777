import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { access, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionLockedError } from "./errors.js";
import { FileSessionStore } from "./file-session-store.js";
import { LOCK_FILE } from "./lock.js";
import { tempDir } from "./test-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let store: FileSessionStore;
let children: ChildProcess[] = [];
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  store = new FileSessionStore({ dataDir: dir });
});
afterEach(async () => {
  for (const child of children) child.kill("SIGKILL");
  children = [];
  await cleanup();
});

async function closedSession(): Promise<string> {
  const session = await store.create({ projectRoot: "/p" });
  await session.close();
  return session.id;
}

const writeLock = (id: string, pid: number, host = hostname()) =>
  writeFile(
    join(store.sessionDir(id), LOCK_FILE),
    JSON.stringify({ pid, hostname: host, acquiredAt: 1 }),
  );

describe("session lock", () => {
  it("refuses a second writer in the same process, naming the owner's pid", async () => {
    const session = await store.create({ projectRoot: "/p" });
    const second = store.open(session.id);
    await expect(second).rejects.toBeInstanceOf(SessionLockedError);
    await expect(second).rejects.toMatchObject({ code: "locked", pid: process.pid });
    await expect(second).rejects.toThrow(`pid ${process.pid}`);
    await session.close();
    const { session: again } = await store.open(session.id);
    await again.close();
  });

  it("lets exactly one of two concurrent opens win", async () => {
    const id = await closedSession();
    const results = await Promise.allSettled([store.open(id), store.open(id)]);
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({
      reason: expect.any(SessionLockedError),
    });
    if (won[0]?.status === "fulfilled") await won[0].value.session.close();
  });

  it("refuses while another live process holds the lock", async () => {
    const id = await closedSession();
    const child = spawn(process.execPath, ["-e", "process.stdin.resume()"], {
      stdio: ["pipe", "ignore", "ignore"],
    });
    children.push(child);
    await once(child, "spawn");
    await writeLock(id, child.pid ?? -1);
    await expect(store.open(id)).rejects.toMatchObject({ code: "locked", pid: child.pid });
    await expect(store.delete(id)).rejects.toMatchObject({ code: "locked", pid: child.pid });
  });

  it("takes over the stale lock of a dead process", async () => {
    const id = await closedSession();
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    await writeLock(id, child.pid ?? -1);
    const { session } = await store.open(id);
    const owner = JSON.parse(await readFile(join(session.dir, LOCK_FILE), "utf8"));
    expect(owner.pid).toBe(process.pid);
    await session.close();
    await expect(access(join(session.dir, LOCK_FILE))).rejects.toThrow();
  });

  it("takes over a damaged lock file", async () => {
    const id = await closedSession();
    await writeFile(join(store.sessionDir(id), LOCK_FILE), "{half");
    const { session } = await store.open(id);
    await session.close();
  });

  it("treats a lock from another machine as held", async () => {
    const id = await closedSession();
    await writeLock(id, 999_999, "another-host");
    await expect(store.open(id)).rejects.toMatchObject({
      code: "locked",
      hostname: "another-host",
    });
  });
});
