import type { Engine, SessionHandle } from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import type { InteractiveArgs } from "../args.js";
import { nextTurn } from "./next-turn.js";
import { historyOf, openSession, watchCommands, withHistory } from "./session-open.js";
import type { ViewStore } from "./store.js";
import type { View } from "./view.js";

/**
 * The session the screen shows, which `/clear` and `/resume` replace: events of a session
 * that was replaced no longer reach the view, and the `/` catalog follows the current one.
 */
export class SessionSlot {
  private current: SessionHandle | undefined;
  private token = 0;
  private refresh: () => void = () => {};

  constructor(
    private readonly parts: {
      readonly engine: Engine;
      readonly root: string;
      readonly args: InteractiveArgs;
      readonly store: ViewStore;
      readonly dataDir: string;
    },
  ) {}

  /** The session open now. Throws before the first `open`. */
  get session(): SessionHandle {
    if (!this.current) throw new Error("no session is open yet");
    return this.current;
  }

  /** Reads the current session's `/` catalog again. */
  refreshCommands(): void {
    this.refresh();
  }

  /**
   * Opens a stored session (`id`) or a new one into the view, its stored conversation
   * folded in first. Rejects like `openSession` (an unknown id, a locked session).
   */
  async open(id: string | undefined): Promise<SessionHandle> {
    const { engine, root, args, store, dataDir } = this.parts;
    const mine = ++this.token;
    const onEvent = (e: EventEnvelope) => {
      if (this.token === mine) store.dispatch(e);
    };
    const session = await openSession(engine, args, root, id, onEvent);
    this.current = session;
    if (id !== undefined) {
      const [events, summary] = await Promise.all([
        historyOf(dataDir, id),
        engine.listSessions().then((list) => list.find((s) => s.id === session.id)),
      ]);
      const resumed = { title: summary?.title, messageCount: summary?.messageCount ?? 0 };
      // Reading the log, folding it and drawing the view are milliseconds each: a turn of the
      // loop for each. The fold is done again if the view changed meanwhile (an event came).
      const fold = (view: View) => withHistory(view, events, resumed, args, root);
      await nextTurn();
      const base = store.getSnapshot();
      const folded = fold(base);
      await nextTurn();
      store.change((view) => (view === base ? folded : fold(view)));
    }
    this.refresh = watchCommands(session, store);
    return session;
  }

  /** Closes the current session (it stays on disk, resumable) and stops its events reaching the view. */
  async leave(): Promise<void> {
    this.token++;
    const old = this.current;
    await old?.close();
  }
}
