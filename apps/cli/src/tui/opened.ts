import type { Engine, SessionHandle } from "@z-engine/engine";
import type { EngineCommand, PermissionMode } from "@z-engine/protocol";
import type { SessionSlot } from "./session-slot.js";
import type { ViewStore } from "./store.js";
import type { Header } from "./view.js";

/** What the screen (ink, or plain lines) gets: an open session and its view. */
export interface Opened {
  readonly engine: Engine;
  /** Flushes the run's log and exported spans; called once the engine has shut down. */
  readonly flushTelemetry: () => Promise<void>;
  /** The session shown now (`/clear` and `/resume` replace it). */
  readonly slot: SessionSlot;
  readonly store: ViewStore;
  readonly dataDir: string;
  /** The welcome header a new session (`/clear`) starts with again. */
  readonly header: Header;
  readonly start: {
    readonly mode: PermissionMode;
    readonly model: string;
    readonly trusted: boolean;
  };
}

/** Commands sent while no session is open (at start, or while `/clear` opens the next) wait here, in order. */
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

  /** Holds commands until the next `attach` (a session is being replaced). */
  detach(): void {
    this.session = undefined;
  }
}

/** A picker for `--resume` without an id (ink's list, or the newest session without a terminal). */
export type Pick = (engine: Engine, root: string) => Promise<string | undefined>;
