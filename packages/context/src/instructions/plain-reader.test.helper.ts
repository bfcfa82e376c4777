import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { ProjectDirEntry, ProjectFileReader, ProjectFileText } from "@z-engine/protocol";

// A stand-in for host's door in context's own tests (context may not import host): it reads
// any regular file, following links, so the tests see context's own scope rules at work.
async function real(path: string): Promise<string | undefined> {
  return realpath(path).catch(() => undefined);
}

/** A `ProjectFileReader` over the real file system with no roots and no rules, for tests. */
export const plainReader: ProjectFileReader = {
  async admit(path) {
    const read = await plainReader.readText(path);
    return read.ok ? { ok: true, path, realPath: read.realPath, size: read.size } : read;
  },
  async readText(asked, options = {}): Promise<ProjectFileText> {
    const path = resolve(asked);
    const realPath = await real(path);
    if (realPath === undefined)
      return { ok: false, path, reason: "missing", message: `${path} does not exist` };
    const info = await stat(realPath);
    if (!info.isFile())
      return { ok: false, path, reason: "notRegular", message: `${path} is not a regular file` };
    const bytes = await readFile(realPath);
    const max = options.maxBytes ?? 1024 * 1024;
    if (bytes.length > max && !options.cut)
      return { ok: false, path, reason: "tooLarge", message: `${path} is too large` };
    const text = bytes.subarray(0, max).toString("utf8");
    return { ok: true, path, realPath, size: info.size, text, cut: bytes.length > max };
  },
  async list(path) {
    const entries = await readdir(path, { withFileTypes: true }).catch(() => undefined);
    return entries
      ?.map(
        (e): ProjectDirEntry => ({
          name: e.name,
          kind: e.isSymbolicLink()
            ? "link"
            : e.isDirectory()
              ? "folder"
              : e.isFile()
                ? "file"
                : "other",
        }),
      )
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  },
  realPath: real,
};
