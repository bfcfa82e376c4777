import { Parser } from "web-tree-sitter";
import { describe, expect, it } from "vitest";
import { loadLanguage } from "./languages.js";
import { extractTags } from "./tags.js";

// The shell parser (policy) starts web-tree-sitter's runtime under the same well-known key:
// two overlapping `Parser.init()` calls would each make a runtime, the second swapped in
// under the grammars and parsers made from the first.
const START = Symbol.for("z-engine.web-tree-sitter.start");

describe("the repo map's tree-sitter runtime", () => {
  it("joins a start another package already began instead of starting its own", async () => {
    const init = Parser.init.bind(Parser);
    let calls = 0;
    Parser.init = (options?: object) => {
      calls++;
      return init(options);
    };
    try {
      const slot = Parser as unknown as Record<symbol, Promise<void> | undefined>;
      // What the shell parser does when it loads first.
      slot[START] ??= Parser.init();
      const language = await loadLanguage("typescript");
      const tags = extractTags("export function greet(): string { return 'hi'; }\n", language);
      expect(calls).toBe(1);
      expect(tags.defs.map((d) => d.name)).toContain("greet");
    } finally {
      Parser.init = init;
    }
  });
});
