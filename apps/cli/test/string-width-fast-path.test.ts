import { createRequire } from "node:module";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { MAYBE_EMOJI, stringWidthFastPath } from "../scripts/string-width-fast-path.mjs";

const rgi = /^\p{RGI_Emoji}$/v;
const maybe = new RegExp(MAYBE_EMOJI.slice(1, -2), "u");

describe("the bundle's string-width fast path", () => {
  it("lets through every grapheme that is an RGI emoji: single code points, keycaps, sequences", () => {
    const missed: string[] = [];
    // Emoji live in the first two planes (tags, in plane 14, only follow U+1F3F4).
    for (let cp = 0; cp <= 0x1ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      for (const s of [c, `${c}\uFE0F`, `${c}\uFE0F\u20E3`, `${c}\u{1F3FD}`])
        if (rgi.test(s) && !maybe.test(s)) missed.push(s);
    }
    expect(missed).toEqual([]);
    const sequences = ["🇫🇷", "👨‍👩‍👧", "👍🏽", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "1️⃣", "❤️‍🔥", "🧑🏿‍🦰"];
    for (const s of sequences) {
      expect(rgi.test(s)).toBe(true);
      expect(maybe.test(s)).toBe(true);
    }
    // What the screen draws (box lines, arrows, dots) never needs the RGI set.
    for (const s of ["╭", "─", "›", "·", "⇧", "❯", "✎", "é"]) expect(maybe.test(s)).toBe(false);
  });

  it("rewrites the installed string-width that ink uses", async () => {
    // ink's entry, then string-width as ink's own files resolve it.
    const ink = createRequire(import.meta.url).resolve("ink");
    const entry = createRequire(ink).resolve("string-width");
    const out = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      plugins: [stringWidthFastPath],
      logLevel: "silent",
    });
    const code = out.outputFiles[0]?.text ?? "";
    expect(code).toContain("Regional_Indicator");
    expect(code).toMatch(/\.test\(segment\) && rgiEmojiRegex\.test\(segment\)/);
  });
});
