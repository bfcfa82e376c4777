// The repo map bench's codebase: the TypeScript sources of @babylonjs/core (a devDependency
// installed from the npm registry). The package ships compiled .js with a source map per
// module whose `sourcesContent` holds the original .ts file: written out under their own
// paths, they are Babylon.js's core sources as its repository has them.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The installed package the sources come from. */
export const SOURCE_PACKAGE = join(
  dirname(fileURLToPath(import.meta.url)),
  "../node_modules/@babylonjs/core",
);

interface SourceMap {
  readonly sources?: readonly string[];
  readonly sourcesContent?: ReadonlyArray<string | null>;
}

async function maps(root: string, dir = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await maps(root, path)));
    else if (entry.name.endsWith(".js.map")) out.push(path);
  }
  return out.sort();
}

/**
 * Writes each module's original `.ts` source (from its `.js.map`) to `target`, at the
 * module's path with `.ts`; returns the written paths, sorted. Throws when a map has no
 * source text (the package changed shape), so the bench never measures an empty tree.
 */
export async function writeSources(target: string): Promise<string[]> {
  const written: string[] = [];
  for (const map of await maps(SOURCE_PACKAGE)) {
    const data = JSON.parse(await readFile(join(SOURCE_PACKAGE, map), "utf8")) as SourceMap;
    const text = data.sourcesContent?.[0];
    if (typeof text !== "string" || !data.sources?.[0]?.endsWith(".ts"))
      throw new Error(`${map} carries no TypeScript source`);
    const path = map.replace(/\.js\.map$/, ".ts");
    await mkdir(dirname(join(target, path)), { recursive: true });
    await writeFile(join(target, path), text);
    written.push(path);
  }
  return written;
}
