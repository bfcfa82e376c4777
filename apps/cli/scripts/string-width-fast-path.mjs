// An esbuild plugin for the interactive screen's start-up. string-width (how ink measures
// text) tests each non-ASCII grapheme against /^\p{RGI_Emoji}$/v, and the first test
// compiles that huge set: about 20 ms of CPU before the first paint. A grapheme holding none
// of the code points an RGI emoji is made of (an Extended_Pictographic, a regional
// indicator, a skin tone modifier, U+FE0F or U+20E3) can never match, so a cheap class test
// goes first and the widths stay the same (test/string-width-fast-path.test.ts checks every
// code point of the first two planes, keycaps and sequences). A string-width without that
// line is bundled unchanged.
import { readFile } from "node:fs/promises";

/** The cheap test: true for every grapheme that could be an RGI emoji. */
export const MAYBE_EMOJI = String.raw`/[\p{Extended_Pictographic}\p{Regional_Indicator}\u{1F3FB}-\u{1F3FF}\u20E3\uFE0F]/u`;

const NEEDLE = "rgiEmojiRegex.test(segment)";

/** @type {import("esbuild").Plugin} */
export const stringWidthFastPath = {
  name: "string-width-fast-path",
  setup(build) {
    build.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes(NEEDLE)) return undefined;
      const contents = source.replace(NEEDLE, `(${MAYBE_EMOJI}.test(segment) && ${NEEDLE})`);
      return { contents, loader: "js" };
    });
  },
};
