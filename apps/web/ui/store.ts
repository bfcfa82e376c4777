// A session's view as an external store: items fold in as they arrive; React re-renders at most
// once per animation frame (the stream can carry hundreds of deltas a second).
import { useSyncExternalStore } from "react";
import { apply, emptyView, type SessionView, type StreamItem } from "./state.js";

export class ViewStore {
  private view: SessionView = emptyView();
  private snapshot: SessionView = { ...this.view };
  private readonly listeners = new Set<() => void>();
  private scheduled = false;

  add(item: StreamItem): void {
    if (!apply(this.view, item)) return;
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.snapshot = { ...this.view, entries: [...this.view.entries] };
      for (const listener of this.listeners) listener();
    });
  }

  get lastCursor(): number {
    return this.view.lastCursor;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = (): SessionView => this.snapshot;
}

export function useView(store: ViewStore): SessionView {
  return useSyncExternalStore(store.subscribe, store.get);
}
