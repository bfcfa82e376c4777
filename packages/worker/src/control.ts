import type { Redis } from "ioredis";
import { type EngineCommand, parseEngineCommandJson } from "@z-engine/protocol";
import type { WorkerEvent } from "./jobs.js";
import type { Keys } from "./keys.js";

/** The commands a host may send to a session a worker runs (a turn itself comes as a job). */
const ROUTED = new Set<EngineCommand["type"]>([
  "steer",
  "cancel",
  "interrupt",
  "resolveApproval",
  "answerQuestion",
  "resolvePlan",
  "setMode",
  "setModel",
  "setEffort",
  "killJob",
  "stopAgent",
]);

/** Something commands can be sent to: an open session (`SessionHandle.send`). */
export interface CommandTarget {
  send(command: EngineCommand): unknown;
}

/**
 * Routes commands published for a session to the one handle this worker holds for it, over
 * one subscriber connection: `attach` subscribes (resolving once Redis confirmed, so no
 * command published after it is missed), the returned function unsubscribes. A message that
 * is not a routed command is published back on the session's stream as `rejected`.
 */
export class ControlRouter {
  private readonly targets = new Map<string, { id: string; target: CommandTarget }>();

  constructor(
    private readonly subscriber: Redis,
    private readonly keys: Keys,
    private readonly publish: (sessionId: string, event: WorkerEvent) => void,
  ) {
    subscriber.on("message", (channel: string, text: string) => this.deliver(channel, text));
  }

  async attach(sessionId: string, target: CommandTarget): Promise<() => Promise<void>> {
    const channel = this.keys.control(sessionId);
    this.targets.set(channel, { id: sessionId, target });
    await this.subscriber.subscribe(channel);
    return async () => {
      this.targets.delete(channel);
      await this.subscriber.unsubscribe(channel).catch(() => {});
    };
  }

  private deliver(channel: string, text: string): void {
    const entry = this.targets.get(channel);
    if (entry === undefined) return;
    const parsed = parseEngineCommandJson(text);
    if (!parsed.ok) {
      this.publish(entry.id, {
        type: "rejected",
        reason: `not a command: ${parsed.error.message}`,
      });
      return;
    }
    if (!ROUTED.has(parsed.value.type)) {
      const reason = `${parsed.value.type} is not sent to a running session (a prompt is a job: submit it)`;
      this.publish(entry.id, { type: "rejected", reason });
      return;
    }
    entry.target.send(parsed.value);
  }
}
