// A virtualised list of rows with measured heights: only the rows in (and near) the viewport
// are in the DOM. It follows the bottom while the user is at the bottom. A row measured above
// the viewport (taller or shorter than estimated) moves the scroll position by the difference,
// so what the user looks at stays still (the browser's own scroll anchoring is off: it does
// not see through the positioned rows, and fought keyboard scrolling).
import {
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";

const ESTIMATE = 72;
const OVERSCAN = 800;

interface Props<T> {
  items: readonly T[];
  keyOf: (item: T) => string;
  render: (item: T) => ReactNode;
}

/** Where each row starts, and the whole height, from the measured heights (estimates for the rest). */
function layout<T>(items: readonly T[], keyOf: (item: T) => string, heights: Map<string, number>) {
  const offsets: number[] = [];
  const at = new Map<string, number>();
  let total = 0;
  for (const item of items) {
    const key = keyOf(item);
    at.set(key, total);
    offsets.push(total);
    total += heights.get(key) ?? ESTIMATE;
  }
  return { offsets, at, total };
}

export function VirtualList<T>({ items, keyOf, render }: Props<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [viewport, setViewport] = useState({ top: 0, height: 800 });
  const [, setMeasured] = useState(0);
  const atBottom = useRef(true);
  /** Height gained by rows above the viewport since the last render: the scroll moves by it. */
  const shift = useRef(0);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    setViewport({ top: el.scrollTop, height: el.clientHeight });
  }, []);

  const { offsets, at, total } = layout(items, keyOf, heights.current);
  const starts = useRef(at);
  starts.current = at;
  let first = 0;
  while (first < items.length - 1 && (offsets[first + 1] ?? 0) < viewport.top - OVERSCAN) first++;
  let last = first;
  while (last < items.length && (offsets[last] ?? 0) < viewport.top + viewport.height + OVERSCAN)
    last++;

  /** Records a row's height; one above the viewport adds its change to the shift. */
  const record = useCallback((key: string, height: number): boolean => {
    const old = heights.current.get(key) ?? ESTIMATE;
    if (heights.current.get(key) === height) return false;
    heights.current.set(key, height);
    const el = scroller.current;
    const start = starts.current.get(key);
    if (el && start !== undefined && start + old <= el.scrollTop && !atBottom.current)
      shift.current += height - old;
    return true;
  }, []);

  const observer = useRef<ResizeObserver | null>(null);
  useEffect(() => {
    observer.current = new ResizeObserver((records) => {
      let changed = false;
      for (const r of records) {
        const target = r.target as HTMLElement;
        // A row that left the window is reported once more, at no size: it keeps its height.
        if (!target.isConnected) {
          observer.current?.unobserve(target);
          continue;
        }
        const key = target.dataset.key;
        if (key && record(key, target.offsetHeight)) changed = true;
      }
      if (changed) setMeasured((n) => n + 1);
    });
    return () => observer.current?.disconnect();
  }, [record]);

  const measure = useCallback(
    (el: HTMLDivElement | null) => {
      if (!el) return;
      const key = el.dataset.key;
      if (key && record(key, el.offsetHeight)) setMeasured((n) => n + 1);
      observer.current?.observe(el);
    },
    [record],
  );

  // Where this list last put the scroll position to follow the bottom.
  const pinnedTop = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (!atBottom.current) {
      // The rows are laid out with their new heights now: keep the view where it was.
      if (shift.current !== 0) el.scrollTop += shift.current;
      shift.current = 0;
      return;
    }
    shift.current = 0;
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

  // Home and End jump at once (a smooth keyboard scroll over rows still being measured
  // would end short of the end).
  const onKeyDown = useCallback((e: KeyboardEvent<HTMLDivElement>) => {
    const el = scroller.current;
    if (!el || e.target !== el || (e.key !== "Home" && e.key !== "End")) return;
    e.preventDefault();
    atBottom.current = e.key === "End";
    shift.current = 0;
    el.scrollTop = e.key === "Home" ? 0 : el.scrollHeight;
  }, []);

  return (
    <div
      className="scroller"
      ref={scroller}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
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
