import { randomBytes } from "node:crypto";
import { link, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { PRIVATE_FILE } from "./private.js";
import { hostname } from "node:os";
import { join } from "node:path";
import { errnoCode, SessionLockedError, StoreError } from "./errors.js";

/** Who holds a session's lock. */
export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly acquiredAt: number;
}

/** The file name of a session's lock inside its folder. */
export const LOCK_FILE = "lock";

/** True when a process with this pid exists on this machine. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}

/** Reads a lock file: its owner, `missing`, or `damaged` (unparsable). Never throws. */
export async function readLockOwner(path: string): Promise<LockOwner | "missing" | "damaged"> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return errnoCode(error) === "ENOENT" ? "missing" : "damaged";
  }
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === "number" && typeof value.hostname === "string") {
      return { pid: value.pid, hostname: value.hostname, acquiredAt: Number(value.acquiredAt) };
    }
  } catch {
    // fall through
  }
  return "damaged";
}

const sameOwner = (a: LockOwner, b: LockOwner) =>
  a.pid === b.pid && a.hostname === b.hostname && a.acquiredAt === b.acquiredAt;

/** A held session lock. */
export class SessionLock {
  constructor(
    readonly path: string,
    readonly owner: LockOwner,
  ) {}

  /** Removes the lock if it is still ours. Never throws. */
  async release(): Promise<void> {
    const current = await readLockOwner(this.path);
    if (typeof current === "object" && sameOwner(current, this.owner)) {
      await unlink(this.path).catch(() => undefined);
    }
  }
}

/**
 * Takes the lock of the session folder `dir`. The lock file appears whole or not at all (it
 * is hard-linked from a finished temporary file). A lock whose owner is a dead process of
 * this machine, or an unreadable one, is taken over. Rejects with `SessionLockedError`
 * naming the owner's pid when a live process (this one included) holds it, or with
 * `StoreError` (`io`).
 */
export async function acquireLock(dir: string, sessionId: string): Promise<SessionLock> {
  const path = join(dir, LOCK_FILE);
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), acquiredAt: Date.now() };
  const temp = join(dir, `${LOCK_FILE}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(temp, JSON.stringify(owner), { mode: PRIVATE_FILE });
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await tryLink(temp, path)) return new SessionLock(path, owner);
      const current = await readLockOwner(path);
      if (current === "missing") continue;
      if (
        current !== "damaged" &&
        (current.hostname !== owner.hostname || isProcessAlive(current.pid))
      ) {
        throw new SessionLockedError(sessionId, current.pid, current.hostname);
      }
      await moveStaleAside(path, current);
    }
    throw new StoreError("locked", `session ${sessionId}: the lock keeps changing hands`);
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError("io", `cannot lock session ${sessionId}`, { cause: error });
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

async function tryLink(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw error;
  }
}

// Move the stale lock aside, then check that what moved is the lock judged stale; if another
// process took it over in between, put its fresh lock back.
async function moveStaleAside(path: string, stale: LockOwner | "damaged"): Promise<void> {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return;
    throw error;
  }
  const moved = await readLockOwner(aside);
  const isStale =
    moved === "damaged"
      ? stale === "damaged"
      : typeof moved === "object" && stale !== "damaged" && sameOwner(moved, stale);
  if (!isStale) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}
