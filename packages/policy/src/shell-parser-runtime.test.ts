import { Parser } from "web-tree-sitter";
import { describe, expect, it } from "vitest";
import { initShellParser, parseCommand } from "./shell-parser.js";

// web-tree-sitter keeps one runtime per JS realm; a second `Parser.init()` that overlaps the
// first makes another and swaps it in under the parsers made from the first. The repo map
// (context) starts the runtime under the same well-known key, so the two share one start.
const START = Symbol.for("z-engine.web-tree-sitter.start");

describe("the shell parser's tree-sitter runtime", () => {
  it("joins a start another package already began instead of starting its own", async () => {
    const init = Parser.init.bind(Parser);
    let calls = 0;
    Parser.init = (options?: object) => {
      calls++;
      return init(options);
    };
    try {
      const slot = Parser as unknown as Record<symbol, Promise<void> | undefined>;
      // What the repo map does when it loads its grammars first.
      slot[START] ??= Parser.init();
      await initShellParser();
      expect(calls).toBe(1);
      const parsed = await parseCommand("npm test && echo done");
      expect(parsed.commands.map((c) => c.argv)).toEqual([
        ["npm", "test"],
        ["echo", "done"],
      ]);
    } finally {
      Parser.init = init;
    }
  });
});
