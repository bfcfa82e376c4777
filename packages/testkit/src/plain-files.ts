import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { ProjectFileReader, ProjectFileText } from "@z-engine/protocol";

/**
 * A ProjectFileReader over plain `node:fs` for tests: no roots and no rules, links listed as
 * links. The engine hands its code host's real door instead.
 */
export function plainFileReader(): ProjectFileReader {
  const refused = (path: string, reason: "missing" | "notRegular" | "tooLarge") =>
    ({ ok: false, path, reason, message: `${path}: ${reason}` }) as const;
  return {
    async admit(asked) {
      const path = resolve(asked);
      const info = await stat(path).catch(() => undefined);
      if (!info) return refused(path, "missing");
      return info.isFile()
        ? { ok: true, path, realPath: await realpath(path), size: info.size }
        : refused(path, "notRegular");
    },
    async readText(asked, options = {}): Promise<ProjectFileText> {
      const admitted = await this.admit(asked);
      if (!admitted.ok) return admitted;
      if (admitted.size > (options.maxBytes ?? 1 << 20)) return refused(admitted.path, "tooLarge");
      return { ...admitted, text: await readFile(admitted.path, "utf8"), cut: false };
    },
    async list(path) {
      const entries = await readdir(path, { withFileTypes: true }).catch(() => undefined);
      return entries
        ?.map((e) => ({
          name: e.name,
          kind: e.isSymbolicLink()
            ? ("link" as const)
            : e.isDirectory()
              ? ("folder" as const)
              : e.isFile()
                ? ("file" as const)
                : ("other" as const),
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    realPath: (path) => realpath(path).catch(() => undefined),
  };
}
