import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { loadLanguage } from "./languages.js";
import { extractTags, QUERY_WINDOW_CHARS } from "./tags.js";

// Large files: the tag query runs in windows, and the tags keep nothing of the source text.

/** A TypeScript source of `blocks` classes, each with a long method, all using `Shared`. */
function bigSource(blocks: number, salt: string, lines = 40): string {
  const parts = ["export interface Shared { value: number }\n"];
  for (let i = 0; i < blocks; i++) {
    const body = Array.from(
      { length: lines },
      (_, j) => `    const v${j} = s.value + ${j}; // ${salt}`,
    );
    parts.push(
      `export class Block${salt}${i} implements Shared {\n  value = ${i};\n` +
        `  computeSomethingRatherLong${i}(s: Shared): number {\n${body.join("\n")}\n    return v0;\n  }\n}\n`,
    );
  }
  return parts.join("");
}

describe("tags of large files", { timeout: 60_000 }, () => {
  it("finds every definition and counts every reference once across query windows", async () => {
    const source = bigSource(60, "A");
    expect(source.length).toBeGreaterThan(4 * QUERY_WINDOW_CHARS);
    const tags = extractTags(source, await loadLanguage("typescript"));
    const classes = tags.defs.filter((d) => d.kind === "class");
    const methods = tags.defs.filter((d) => d.kind === "method");
    expect(classes.map((d) => d.name)).toEqual(Array.from({ length: 60 }, (_, i) => `BlockA${i}`));
    expect(methods).toHaveLength(60);
    expect(new Set(tags.defs.map((d) => `${d.line}:${d.name}`)).size).toBe(tags.defs.length);
    const lines = source.split("\n");
    for (const d of tags.defs) expect(lines[d.line - 1]?.trim()).toBe(d.signature);
    // Every `Shared` type name counts once (the interface's own name among them).
    expect(tags.refs.Shared).toBe(source.match(/\bShared\b/g)?.length);
    expect(tags.refs.Shared).toBe(121);
  });

  it("keeps no source text alive through its names and signatures", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const language = await loadLanguage("typescript");
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    extractTags(bigSource(4, "warm"), language); // code compiled lazily is not counted
    const kept: unknown[] = [];
    const before = heap();
    let total = 0;
    for (let i = 0; i < 8; i++) {
      // Built fresh each time, so that no source is shared with another.
      const source = bigSource(40, `S${i}x`, 300);
      total += source.length;
      kept.push(extractTags(source, language));
    }
    const grown = heap() - before;
    expect(total).toBeGreaterThan(2_500_000);
    // The tags themselves are a small fraction of the sources they were cut from.
    expect(grown).toBeLessThan(total / 4);
    expect(kept).toHaveLength(8);
  });
});
