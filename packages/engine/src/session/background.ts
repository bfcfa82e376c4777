import { runHook } from "../hooks/run-hook.js";
import type { HookRunner } from "../hooks/runner.js";
import type { Journal } from "../journal/journal.js";

/** A session's background tasks (titles, Notification hooks): close awaits them. */
export class BackgroundTasks {
  private readonly tasks = new Set<Promise<unknown>>();

  /** Keeps `task` until it settles. */
  track(task: Promise<unknown>): void {
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  /** Resolves once every task tracked so far has settled (never rejects). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.tasks]);
  }
}

/**
 * The session's notifier: runs the Notification hooks in the background when an approval,
 * a question or a plan waits on the user. `hooks` is read at each call (trust may replace it).
 */
export function notifier(
  hooks: () => HookRunner,
  journal: Journal,
  tasks: BackgroundTasks,
): (message: string) => void {
  return (message) => {
    const runner = hooks();
    if (!runner.has("Notification")) return;
    tasks.track(runHook({ hooks: runner, journal }, "Notification", { message }));
  };
}
