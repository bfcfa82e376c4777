import { emptyUsage } from "@z-engine/protocol";
import { renderToString, Static } from "ink";
import { render } from "ink-testing-library";
import { useState, useSyncExternalStore } from "react";
import { describe, expect, it } from "vitest";
import { ItemView } from "./items.js";
import { nextTurn } from "./next-turn.js";
import { ColorContext } from "./theme.js";
import { FEW, renderItems, sliceSize, Transcript } from "./transcript.js";
import type { Item } from "./view.js";

function items(count: number, from = 0): Item[] {
  const list: Item[] = [];
  for (let i = from; list.length < count; i++) {
    const n = list.length % 4;
    if (n === 0) list.push({ id: i, kind: "user", text: `prompt ${i} ${"word ".repeat(i % 30)}` });
    else if (n === 1)
      list.push({
        id: i,
        kind: "tool",
        title: `Bash echo ${i}`,
        status: i % 3 === 0 ? "error" : "ok",
        durationMs: 12,
        display: {
          kind: "command",
          command: `echo ${i}`,
          output: `${i}\n`.repeat(i % 7),
          exitCode: 0,
        },
      });
    else if (n === 2)
      list.push({ id: i, kind: "assistant", text: `Answer ${i}: **bold** \`code\`\n> quote` });
    else
      list.push({
        id: i,
        kind: "turnEnd",
        outcome: "completed",
        badge: { status: "unverified", reason: "no check ran since the change", checks: [] },
        usage: emptyUsage(),
        durationMs: 1500,
      });
  }
  return list;
}

/** What ink's `<Static>` prints for `list` (the transcript's output before the slicer). */
function printedByStatic(list: Item[], columns: number, colors: boolean): string {
  const tree = (
    <ColorContext.Provider value={colors}>
      <Static items={list}>{(item) => <ItemView key={item.id} item={item} />}</Static>
    </ColorContext.Provider>
  );
  return `${renderToString(tree, { columns })}\n`;
}

const header: Item = {
  id: 10_000,
  kind: "header",
  header: { folder: "/tmp/p", branch: "main", model: "m", mode: "ask", key: "ANTHROPIC_API_KEY" },
};

/** Where the test adds items to the hosted transcript. */
let push: (more: Item[]) => void = () => {};

function Host() {
  const [list, setList] = useState<readonly Item[]>([header]);
  push = (more) => setList((l) => [...l, ...more]);
  return <Transcript items={list} generation={0} columns={100} paused={false} />;
}

/** The items as the screen gets them: from an external store (a sync render, in a microtask). */
let stored: readonly Item[] = [];
let changed = () => {};

function StoreHost() {
  const now = useSyncExternalStore(
    (listener) => {
      changed = listener;
      return () => {};
    },
    () => stored,
  );
  return <Transcript items={now} generation={0} columns={100} paused={false} />;
}

describe("renderItems", () => {
  it("prints what <Static> prints, at any width, with or without colour", () => {
    const list = [header, ...items(40)];
    for (const columns of [30, 60, 100, 160])
      for (const colors of [true, false])
        for (const [a, b] of [
          [0, list.length],
          [0, 1],
          [1, 7],
          [5, 33],
        ] as const)
          expect(renderItems(list.slice(a, b), { columns, colors, expanded: false })).toBe(
            printedByStatic(list.slice(a, b), columns, colors),
          );
  });
});

describe("sliceSize", () => {
  it("fits the slice's budget from the cost per item, at least one, at most what is left", () => {
    expect(sliceSize(1, 100)).toBe(4);
    expect(sliceSize(0.1, 100)).toBe(25);
    expect(sliceSize(50, 100)).toBe(1);
    expect(sliceSize(0.1, 3)).toBe(3);
  });
});

describe("Transcript", () => {
  it("prints a long history once, in order, in slices of its own, and what came meanwhile after it", async () => {
    const first = items(400);
    const app = render(<Host />);
    push(first);
    const later = items(2, 1000);
    push(later);
    const all = [header, ...first, ...later];
    const last = renderItems(later, { columns: 100, colors: true, expanded: false });
    for (let i = 0; i < 10_000 && !app.frames.join("").includes(last.trimEnd()); i++)
      await new Promise((resolve) => setImmediate(resolve));
    const printed = app.frames.join("");
    // Each item's rows show once and in order.
    let at = 0;
    for (const item of all) {
      const rows = renderItems([item], { columns: 100, colors: true, expanded: false }).trimEnd();
      const next = printed.indexOf(rows, at);
      expect(next, `item ${item.id}`).toBeGreaterThanOrEqual(at);
      at = next + rows.length;
    }
    // The 400 came in many writes (the screen takes keys between them), none holding them all.
    expect(app.frames.length).toBeGreaterThan(400 / 25);
    expect(FEW).toBeLessThan(later.length + 3);
    app.unmount();
  });

  it("prints nothing of a long history in the turn it arrives in: keys read next come first", async () => {
    stored = [header];
    const app = render(<StoreHost />);
    const more = items(100);
    const first = renderItems(more.slice(0, 1), { columns: 100, colors: true, expanded: false });
    // What the next turn of the loop sees first (it reads the keys typed meanwhile): the
    // first slice must not be out yet.
    const early = nextTurn().then(() => app.frames.join(""));
    stored = [...stored, ...more];
    changed();
    expect(await early).not.toContain(first.trimEnd());
    for (let i = 0; i < 10_000 && !app.frames.join("").includes(first.trimEnd()); i++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(app.frames.join("")).toContain(first.trimEnd());
    app.unmount();
  });
});
