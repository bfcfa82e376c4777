import type { Message, TextBlock } from "@z-engine/protocol";

/** Something the engine tells the model once, keyed so that it is never said twice. */
export interface Reminder {
  /** Dedupe key: `nested:/repo/pkg/AGENTS.md`, `job:job_123`, `todo:turn_4`, ... */
  readonly key: string;
  readonly text: string;
}

/** Wraps a reminder's text in the `<system-reminder>` tags the base prompt explains. */
export function reminderBlock(text: string): TextBlock {
  return { type: "text", text: `<system-reminder>\n${text.trim()}\n</system-reminder>` };
}

/**
 * Reminders waiting for the next user message, each delivered at most once per session.
 * Not thread-safe across processes; within one process, calls are synchronous.
 */
export class ReminderQueue {
  readonly #queued = new Map<string, string>();
  readonly #delivered = new Set<string>();

  /** `delivered`: keys already delivered earlier (from a replayed session), never queued again. */
  constructor(delivered: Iterable<string> = []) {
    for (const key of delivered) this.#delivered.add(key);
  }

  /** Queues a reminder; returns false (and changes nothing) when its key is queued or delivered. */
  add(reminder: Reminder): boolean {
    if (this.#queued.has(reminder.key) || this.#delivered.has(reminder.key)) return false;
    this.#queued.set(reminder.key, reminder.text);
    return true;
  }

  /** How many reminders are waiting. */
  get size(): number {
    return this.#queued.size;
  }

  /**
   * Drops what is queued and forgets what was delivered (a rewind of the conversation drops
   * the messages that carried them), so each reminder may be given again.
   */
  reset(): void {
    this.#queued.clear();
    this.#delivered.clear();
  }

  /** True when the key was delivered (drained) already. */
  wasDelivered(key: string): boolean {
    return this.#delivered.has(key);
  }

  /** Takes every queued reminder as text blocks, in the order they were added, and marks them delivered. */
  drain(): TextBlock[] {
    const blocks: TextBlock[] = [];
    for (const [key, text] of this.#queued) {
      blocks.push(reminderBlock(text));
      this.#delivered.add(key);
    }
    this.#queued.clear();
    return blocks;
  }

  /**
   * Drains the queue into `message` (the user message about to be recorded) and returns the
   * message to record: a new object with the reminder blocks appended after its content, or
   * the same message when nothing was queued. The caller records what this returns, so the
   * log, replay and the cached prefix hold the same bytes.
   */
  appendTo(message: Message): Message {
    return appendReminders(message, this.drain());
  }
}

/** `message` with `blocks` appended (a new object), or `message` itself when `blocks` is empty. */
export function appendReminders(message: Message, blocks: readonly TextBlock[]): Message {
  if (blocks.length === 0) return message;
  return { ...message, content: [...message.content, ...blocks] };
}

/** The nudge when the todo list has not been touched for a while. */
export function todoNudgeReminder(key: string): Reminder {
  return {
    key,
    text: "The todo list has not been updated for a while. If you are working on a multi-step task, update it with TodoWrite; if the task is simple, ignore this.",
  };
}

/** Files that changed on disk since the agent last read them. */
export function filesChangedReminder(key: string, paths: readonly string[]): Reminder {
  const list = paths.map((path) => `- ${path}`).join("\n");
  return {
    key,
    text: `These files were changed outside the agent since you last read them; read them again before editing:\n${list}`,
  };
}

/** A background job that finished. */
export function jobFinishedReminder(job: {
  readonly id: string;
  readonly command: string;
  readonly exitCode: number | null;
}): Reminder {
  const status = job.exitCode === null ? "was stopped" : `exited with code ${job.exitCode}`;
  return {
    key: `job:${job.id}`,
    text: `Background job ${job.id} (\`${job.command}\`) ${status}. Read its output with JobOutput.`,
  };
}
