import { readFile } from "node:fs/promises";

/**
 * Whether a process is still running. A zombie (exited, not yet reaped) counts as gone. Uses
 * /proc where it exists, else `kill(pid, 0)`. Never rejects.
 */
export async function processAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  if (stat !== undefined) return stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves true once the process is gone, false when it still runs after `timeoutMs` (default 5 s). */
export async function waitForProcessExit(pid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await processAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
