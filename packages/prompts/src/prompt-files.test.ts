import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PROMPT_FILES } from "./generated/prompt-files.js";

const root = fileURLToPath(new URL("../prompts", import.meta.url));

async function markdownFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await markdownFiles(full)));
    else if (entry.name.endsWith(".md")) out.push(relative(root, full).split(sep).join("/"));
  }
  return out.sort();
}

describe("generated prompt files", () => {
  it("match the markdown sources exactly (run `pnpm run generate` if this fails)", async () => {
    const names = await markdownFiles(root);
    expect(Object.keys(PROMPT_FILES).sort()).toEqual(names);
    for (const name of names) {
      expect(PROMPT_FILES[name], name).toBe(await readFile(join(root, name), "utf8"));
    }
  });
});
