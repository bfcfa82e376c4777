import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The session child process of the crash tests. */
export const childScript = join(dirname(fileURLToPath(import.meta.url)), "child-session.mjs");

/** Collects the child's stdout lines and resolves once `ready` accepts them. */
export function watch(child: ChildProcess) {
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let rest = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop() ?? "";
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const until = async (ready: (lines: readonly string[]) => boolean, what: string) => {
    const deadline = Date.now() + 15_000;
    let gone = false;
    void exited.then(() => {
      gone = true;
      for (const wake of waiters.splice(0)) wake();
    });
    while (!ready(lines)) {
      if (gone || Date.now() > deadline)
        throw new Error(
          `the child never reached ${what}; stdout: ${lines.join(" | ")}; stderr: ${stderr}`,
        );
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return { lines, until, exited };
}

export const count = (lines: readonly string[], line: string) =>
  lines.filter((l) => l === line).length;

export function reap(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8"));
  if (!Number.isInteger(pid) || pid <= 0) return;
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
