import type { ChildEnvironment, ChildFolder } from "@z-engine/host";
import { firstJsonObject, MAX_QUESTION, type Sidecar } from "./sidecar.js";
import { type SidecarLaunch, SidecarProcess } from "./sidecar-process.js";

/** Where the engine's sidecar programs start: the engine's neutral folder, the scrubbed environment. */
export interface SidecarPlace {
  readonly folder: () => ChildFolder;
  readonly env: ChildEnvironment;
}

const keyOf = (launch: SidecarLaunch) =>
  JSON.stringify([launch.command, launch.args, launch.model ?? null]);

/**
 * The engine's decision sidecars (architecture.md: at most one per launch settings, shared
 * by the sessions with the same `[decisions] sidecar_command`, `sidecar_args` and `model`,
 * stopped by `Engine.shutdown`). A program starts on its first question, not before; one
 * that exits is started again at the next question.
 */
export class SidecarPool {
  private readonly processes = new Map<string, SidecarProcess>();
  private readonly listeners = new Map<string, Set<(message: string) => void>>();
  private closed = false;

  constructor(private readonly place: SidecarPlace) {}

  /**
   * The sidecar for `launch`, shared with every session that asks for the same launch
   * settings. `onProblem` hears why the program could not start or exited (each session
   * turns it into a notice). After {@link close}, every question abstains.
   */
  sidecar(launch: SidecarLaunch, onProblem: (message: string) => void): Sidecar {
    const key = keyOf(launch);
    let listeners = this.listeners.get(key);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(key, listeners);
    }
    listeners.add(onProblem);
    const processFor = () => {
      let process = this.processes.get(key);
      if (!process) {
        const heard = listeners;
        process = new SidecarProcess(
          launch,
          { folder: this.place.folder(), env: this.place.env },
          (message) => {
            for (const listen of heard) listen(message);
          },
        );
        this.processes.set(key, process);
      }
      return process;
    };
    return {
      ask: async (instructions, question, schema, signal) => {
        if (this.closed || signal.aborted) return undefined;
        const reply = await processFor().ask(instructions, question.slice(0, MAX_QUESTION), signal);
        if (!("text" in reply) || signal.aborted) return undefined;
        const parsed = schema.safeParse(firstJsonObject(reply.text));
        return parsed.success ? parsed.data : undefined;
      },
    };
  }

  /** Stops hearing `onProblem` (a session closed). */
  forget(onProblem: (message: string) => void): void {
    for (const listeners of this.listeners.values()) listeners.delete(onProblem);
  }

  /** The running programs (tests, `/status`). */
  running(): readonly { readonly launch: string; readonly pid: number | undefined }[] {
    return [...this.processes.entries()]
      .filter(([, p]) => p.running)
      .map(([launch, p]) => ({ launch, pid: p.pid }));
  }

  /** Stops every program and resolves once they exited. Safe to call twice; never rejects. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.processes.values()].map((p) => p.stop()));
    this.processes.clear();
  }
}
