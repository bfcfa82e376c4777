// A virtualised list of rows with measured heights: only the rows in (and near) the viewport
// are in the DOM. It follows the bottom while the user is at the bottom.
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

const ESTIMATE = 64;
const OVERSCAN = 800;

interface Props<T> {
  items: readonly T[];
  keyOf: (item: T) => string;
  render: (item: T) => ReactNode;
}

export function VirtualList<T>({ items, keyOf, render }: Props<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [viewport, setViewport] = useState({ top: 0, height: 800 });
  const [, setMeasured] = useState(0);
  const atBottom = useRef(true);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    setViewport({ top: el.scrollTop, height: el.clientHeight });
  }, []);

  const offsets: number[] = [];
  let total = 0;
  for (const item of items) {
    offsets.push(total);
    total += heights.current.get(keyOf(item)) ?? ESTIMATE;
  }
  let first = 0;
  while (first < items.length - 1 && (offsets[first + 1] ?? 0) < viewport.top - OVERSCAN) first++;
  let last = first;
  while (last < items.length && (offsets[last] ?? 0) < viewport.top + viewport.height + OVERSCAN)
    last++;

  const observer = useRef<ResizeObserver | null>(null);
  useEffect(() => {
    observer.current = new ResizeObserver((records) => {
      let changed = false;
      for (const r of records) {
        const key = (r.target as HTMLElement).dataset.key;
        const h = (r.target as HTMLElement).offsetHeight;
        if (key && heights.current.get(key) !== h) {
          heights.current.set(key, h);
          changed = true;
        }
      }
      if (changed) setMeasured((n) => n + 1);
    });
    return () => observer.current?.disconnect();
  }, []);

  const measure = useCallback((el: HTMLDivElement | null) => {
    if (!el) return;
    const key = el.dataset.key;
    if (key) heights.current.set(key, el.offsetHeight);
    observer.current?.observe(el);
  }, []);

  // Where this list last put the scroll position to follow the bottom.
  const pinnedTop = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !atBottom.current) return;
    // Moved away since (Home, a drag) and its scroll event not handled yet: a render caused
    // by rows being measured must not pull the view back to the bottom.
    const moved = pinnedTop.current !== null && Math.abs(el.scrollTop - pinnedTop.current) > 1;
    if (moved && el.scrollHeight - el.scrollTop - el.clientHeight >= 40) {
      atBottom.current = false;
      return;
    }
    el.scrollTop = el.scrollHeight;
    pinnedTop.current = el.scrollTop;
  });

  return (
    <div
      className="scroller"
      ref={scroller}
      onScroll={onScroll}
      data-testid="transcript"
      aria-live="polite"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the transcript scrolls by keyboard
      tabIndex={0}
      role="log"
    >
      <div style={{ height: total, position: "relative" }}>
        <div style={{ position: "absolute", top: offsets[first] ?? 0, left: 0, right: 0 }}>
          {items.slice(first, last).map((item) => (
            <div key={keyOf(item)} data-key={keyOf(item)} ref={measure}>
              {render(item)}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
