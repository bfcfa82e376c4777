// A session's view as an external store: items queue as they arrive and fold in (the pure
// `reduceView`) at most once per animation frame, so a stream of hundreds of deltas a second
// or a replay of thousands of events renders once per frame.
import { useSyncExternalStore } from "react";
import { reduceView } from "./view/reduce.js";
import { emptyView, type PageView, type StreamItem } from "./view/types.js";

export class ViewStore {
  private view: PageView = emptyView();
  private queue: StreamItem[] = [];
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  /** The last cursor received (applied or queued): where a reconnect resumes. */
  private received = -1;

  add(item: StreamItem): void {
    if (item.cursor <= this.received) return;
    this.received = item.cursor;
    this.queue.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      const items = this.queue;
      this.queue = [];
      const next = reduceView(this.view, items);
      if (next === this.view) return;
      this.view = next;
      for (const listener of this.listeners) listener();
    });
  }

  get lastCursor(): number {
    return this.received;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = (): PageView => this.view;
}

export function useView(store: ViewStore): PageView {
  return useSyncExternalStore(store.subscribe, store.get);
}
