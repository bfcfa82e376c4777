import type { Engine, SessionHandle } from "@z-engine/engine";
import type { EngineCommand } from "@z-engine/protocol";
import type { ViewStore } from "./store.js";

/** What the screen (ink, or plain lines) gets: an open session and its view. */
export interface Opened {
  readonly engine: Engine;
  readonly session: SessionHandle;
  readonly store: ViewStore;
  readonly dataDir: string;
  /** Reads the session's `/` catalog again into the view (custom command files may have changed). */
  readonly refreshCommands: () => void;
}

/** Commands sent before the session is open wait here, in order. */
export class CommandQueue {
  private session: SessionHandle | undefined;
  private readonly waiting: EngineCommand[] = [];

  readonly send = (command: EngineCommand): void => {
    if (this.session) this.session.send(command);
    else this.waiting.push(command);
  };

  attach(session: SessionHandle): void {
    this.session = session;
    for (const command of this.waiting.splice(0)) session.send(command);
  }
}

/** A picker for `--resume` without an id (ink's list, or the newest session without a terminal). */
export type Pick = (engine: Engine, root: string) => Promise<string | undefined>;
