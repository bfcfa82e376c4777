import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { plainReader } from "./plain-reader.test.helper.js";
import { expandImports } from "./imports.js";

let repo: FixtureRepo;
beforeEach(async () => {
  repo = await createFixtureRepo({
    files: {
      "secret.md": "SECRET",
      "package.json": '{"name":"demo"}',
      Makefile: "test:\n\tnode --test",
      "a.md": "A imports @b.md",
      "b.md": "B imports @a.md",
    },
  });
});
afterEach(() => repo.dispose());

const expand = (text: string) =>
  expandImports(text, repo.path("AGENTS.md"), {
    fs: plainReader,
    scope: { roots: [repo.root] },
  });

describe("what is and is not an import", () => {
  it("leaves @path alone in fenced blocks (a ~~~ line inside ``` does not end it) and in code spans", async () => {
    const text = [
      "```",
      "~~~",
      "@secret.md",
      "~~~",
      "```",
      "Inline ``@secret.md`` and `@secret.md` stay; so does ``a ` @secret.md``.",
    ].join("\n");
    const out = await expand(text);
    expect(out.text).toBe(text);
    expect(out.imported).toEqual([]);
  });

  it("leaves e-mail addresses and @-mentions of missing files alone", async () => {
    const text = "Write to dev@secret.md or ops@example.com; ask @someone.";
    expect((await expand(text)).text).toBe(text);
  });

  it("imports files that are not markdown", async () => {
    const out = await expand("Scripts: @package.json and @Makefile.");
    expect(out.text).toBe('Scripts: {"name":"demo"} and test:\n\tnode --test.');
  });

  it("stops a cycle with a note", async () => {
    const out = await expand("@a.md");
    expect(out.text).toBe(`A imports B imports [import cycle: ${repo.path("a.md")}]`);
    expect(out.problems[0]).toContain("import cycle");
  });
});
