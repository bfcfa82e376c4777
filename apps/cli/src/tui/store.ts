import type { EventEnvelope } from "@z-engine/protocol";
import { reduce, type View } from "./view.js";

/** The view as an external store for React (`useSyncExternalStore`): events in, snapshots out. */
export class ViewStore {
  private view: View;
  private readonly listeners = new Set<() => void>();

  constructor(initial: View) {
    this.view = initial;
  }

  readonly getSnapshot = (): View => this.view;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Folds one event in. Never throws (an event the view cannot fold leaves it as it was). */
  readonly dispatch = (envelope: EventEnvelope): void => {
    try {
      this.update(reduce(this.view, envelope));
    } catch {
      // A malformed event must not take the screen down.
    }
  };

  /** Changes the view locally (things the engine does not echo as events). */
  readonly change = (change: (view: View) => View): void => {
    this.update(change(this.view));
  };

  private update(next: View): void {
    if (next === this.view) return;
    this.view = next;
    for (const listener of this.listeners) listener();
  }
}
