import { renderToString, Static, useStdout } from "ink";
import { type ReactNode, useContext, useEffect, useRef, useState } from "react";
import { ItemView } from "./items.js";
import { ColorContext, ExpandedContext, type ThemeName, ThemeContext } from "./theme.js";
import type { Item } from "./view.js";

/**
 * New items up to this many print with the live frame in one write (ink's `<Static>`: a
 * finished tool row replaces its live row at once); more (a resume, a redraw) go to the slicer.
 */
export const FEW = 4;

/** CPU time one slice of printing may take before it yields to input and redraws (ms). */
export const SLICE_MS = 4;

/** The most items one slice renders at once (one `renderToString`, one write). */
const MOST = 25;

/** What one transcript has printed in the current generation. */
interface Printed {
  generation: number;
  /** Items before this index are printed or handed to `<Static>`. */
  end: number;
  /** Items before this index belong to the slicer, which prints up to `sliced`. */
  owned: number;
  sliced: number;
  /** Bumped each time the slicer takes a range: `<Static>` starts over after it. */
  segment: number;
  /** Estimated wall time of rendering one item (ms), from the last slice. */
  perItem: number;
}

/** Items as ink's `<Static>` prints them (its exact output and trailing newline), off the screen's tree. */
export function renderItems(
  items: readonly Item[],
  options: { columns: number; colors: boolean; expanded: boolean; theme?: ThemeName },
): string {
  const tree = (
    <ThemeContext.Provider value={options.theme ?? "system"}>
      <ColorContext.Provider value={options.colors}>
        <ExpandedContext.Provider value={options.expanded}>
          <Static items={items as Item[]}>
            {(item) => <ItemView key={item.id} item={item} />}
          </Static>
        </ExpandedContext.Provider>
      </ColorContext.Provider>
    </ThemeContext.Provider>
  );
  return `${renderToString(tree, { columns: options.columns })}\n`;
}

/** How many items the next slice renders, from the last slice's cost per item. */
export function sliceSize(perItem: number, left: number): number {
  return Math.max(1, Math.min(left, MOST, Math.floor(SLICE_MS / Math.max(perItem, 0.01))));
}

/**
 * Prints items `sliced..owned` of `items()` in slices of at most `SLICE_MS` each, one write
 * per slice above the live frame, yielding (setImmediate) between slices so keys and redraws
 * run; calls `done` when all are printed. Returns a stop function.
 */
function startSlicer(
  p: Printed,
  items: () => readonly Item[],
  print: (batch: readonly Item[]) => string,
  write: (data: string) => void,
  done: () => void,
): () => void {
  let timer: NodeJS.Immediate | undefined;
  const slice = () => {
    const started = process.cpuUsage();
    const n = sliceSize(p.perItem, p.owned - p.sliced);
    const batch = items().slice(p.sliced, p.sliced + n);
    write(print(batch));
    p.sliced += batch.length;
    // The process's CPU time, not the wall's: a machine that holds the process up does not
    // shrink the slices to one item each (each then costs its own write and layout).
    const used = process.cpuUsage(started);
    const cost = (used.user + used.system) / 1000 / Math.max(batch.length, 1);
    p.perItem = 0.7 * p.perItem + 0.3 * cost;
    if (p.sliced < p.owned) timer = setImmediate(slice);
    else done();
  };
  // The first slice on a turn of its own too: the items arrived in a turn that folded and
  // drew them (a resume's history), so an immediate queued now would run in that turn.
  timer = setImmediate(() => {
    timer = setImmediate(slice);
  });
  return () => clearImmediate(timer);
}

/**
 * The transcript: finished items printed once above the live frame. A few new items print
 * with the frame (`<Static>`); many at once (a resumed session, the whole transcript again
 * after a redraw) are rendered to strings off the screen's tree and printed in slices of a
 * few milliseconds, so the screen takes keys and redraws while a long history prints. Starts
 * over when `generation` changes; prints nothing while `paused` (an editor has the terminal).
 */
export function Transcript(props: {
  items: readonly Item[];
  generation: number;
  columns: number;
  paused: boolean;
}): ReactNode {
  const { write } = useStdout();
  const colors = useContext(ColorContext);
  const expanded = useContext(ExpandedContext);
  const theme = useContext(ThemeContext);
  const latest = useRef(props.items);
  latest.current = props.items;
  const ref = useRef<Printed>({
    generation: -1,
    end: 0,
    owned: 0,
    sliced: 0,
    segment: 0,
    perItem: 1,
  });
  const p = ref.current;
  if (p.generation !== props.generation)
    Object.assign(p, {
      generation: props.generation,
      end: 0,
      owned: 0,
      sliced: 0,
      segment: p.segment + 1,
    });
  const slicing = p.sliced < p.owned;
  if (!slicing && props.items.length - p.end > FEW) {
    p.owned = props.items.length;
    p.segment++;
  }
  const busy = p.sliced < p.owned;
  if (!busy) p.end = props.items.length;
  const [, tick] = useState(0);
  const options = { columns: props.columns, colors, expanded, theme };
  useEffect(() => {
    if (!busy || props.paused) return;
    const print = (batch: readonly Item[]) => renderItems(batch, options);
    return startSlicer(
      p,
      () => latest.current,
      print,
      write,
      () => tick((n) => n + 1),
    );
  });
  const items = busy ? [] : (props.items.slice(p.owned) as Item[]);
  return (
    <Static key={`${props.generation}:${p.segment}`} items={items}>
      {(item) => <ItemView key={item.id} item={item} />}
    </Static>
  );
}
