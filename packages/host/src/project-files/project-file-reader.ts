import type { Dirent, Stats } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import type {
  ProjectDirEntry,
  ProjectFileAdmission,
  ProjectFileReader,
  ProjectFileRefusal,
  ProjectFileRefused,
  ProjectFileText,
} from "@z-engine/protocol";
import { readVerified } from "./read-verified.js";

/** What the door knows about a file when it asks its caller's rules. */
export interface ProjectFileFacts {
  /** The path as asked for (absolute, `..` folded, links not followed). */
  readonly path: string;
  /** The real absolute path (every symlink followed). */
  readonly realPath: string;
  /** Whether the real path is inside one of the reader's roots. */
  readonly inside: boolean;
  /**
   * A regular file with more than one hard link: its other names are not known, so a rule
   * that would refuse one of them cannot be checked.
   */
  readonly hardLinked: boolean;
}

/** How a door is set up. */
export interface ProjectFileReaderOptions {
  /** Folders whose files may be read (their real paths are compared); `/` admits every path. */
  readonly roots: readonly string[];
  /**
   * Asked about a file or folder whose real path is outside `roots`; true admits it. Absent:
   * nothing outside is read. A rejection counts as a refusal.
   */
  readonly outside?: (file: ProjectFileFacts) => boolean | Promise<boolean>;
  /**
   * The Read rules: a sentence saying why the file may not be read, or undefined to admit it.
   * Asked about every file and folder, inside the roots or not. A rejection refuses.
   */
  readonly rules?: (file: ProjectFileFacts) => string | undefined | Promise<string | undefined>;
  /** Most bytes `readText` reads when the call gives no `maxBytes` (default 1 MiB). */
  readonly maxBytes?: number;
}

/** The size `readText` reads at most by default. */
export const DEFAULT_PROJECT_FILE_BYTES = 1024 * 1024;

function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function code(error: unknown): string {
  return String((error as NodeJS.ErrnoException | null)?.code ?? "EIO");
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return "a folder";
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  return "not a regular file";
}

function refusal(
  path: string,
  reason: ProjectFileRefusal,
  message: string,
  realPath?: string,
): ProjectFileRefused {
  return { ok: false, path, reason, message, ...(realPath === undefined ? {} : { realPath }) };
}

/** The real path, or a refusal when nothing is there (a dangling link, a loop). */
async function resolveReal(path: string): Promise<string | ProjectFileRefused> {
  try {
    return await realpath(path);
  } catch (error) {
    const c = code(error);
    if (c === "ENOENT" || c === "ENOTDIR")
      return refusal(path, "missing", `${path} does not exist`);
    if (c === "ELOOP") return refusal(path, "missing", `${path} is a symbolic link loop`);
    return refusal(path, "unreadable", `${path} cannot be read (${c})`);
  }
}

/**
 * The checks a path passes before it is read or listed: where it really leads, whether the
 * roots or the outside gate admit it, and the Read rules.
 */
function admission(options: ProjectFileReaderOptions) {
  let roots: Promise<string[]> | undefined;
  const realRoots = () => {
    roots ??= Promise.all(options.roots.map((root) => realpath(root).catch(() => resolve(root))));
    return roots;
  };
  const insideRoots = async (real: string) => (await realRoots()).some((r) => within(real, r));

  /** Where `path` leads, and whether the roots and the outside gate admit it. */
  async function place(
    path: string,
  ): Promise<{ real: string; inside: boolean } | ProjectFileRefused> {
    const real = await resolveReal(path);
    if (typeof real !== "string") return real;
    return { real, inside: await insideRoots(real) };
  }

  async function outsideGate(facts: ProjectFileFacts): Promise<ProjectFileRefused | undefined> {
    if (facts.inside) return undefined;
    const admitted = await Promise.resolve(options.outside?.(facts) ?? false).catch(() => false);
    if (admitted) return undefined;
    const { path, realPath } = facts;
    const where = realPath === path ? path : `${path} leads to ${realPath}, which is`;
    return refusal(path, "outside", `${where} outside the project`, realPath);
  }

  async function rulesGate(facts: ProjectFileFacts): Promise<ProjectFileRefused | undefined> {
    const why = await Promise.resolve(options.rules?.(facts)).catch(
      (error: unknown) => `the Read rules could not be checked (${String(error)})`,
    );
    return why === undefined ? undefined : refusal(facts.path, "denied", why, facts.realPath);
  }

  /** Where the file is and its stat, or why it is refused: outside, not regular, by the rules. */
  async function admitFile(
    asked: string,
  ): Promise<{ info: Stats; real: string } | ProjectFileRefused> {
    const path = resolve(asked);
    const placed = await place(path);
    if ("ok" in placed) return placed;
    const info = await stat(placed.real).catch((error: unknown) => code(error));
    if (typeof info === "string")
      return refusal(path, "unreadable", `${path} cannot be read (${info})`, placed.real);
    const hardLinked = info.isFile() && info.nlink > 1;
    const facts = { path, realPath: placed.real, inside: placed.inside, hardLinked };
    const outside = await outsideGate(facts);
    if (outside) return outside;
    if (!info.isFile())
      return refusal(
        path,
        "notRegular",
        `${path} is ${kindOf(info)}, not a regular file: only regular files are read`,
        placed.real,
      );
    return (await rulesGate(facts)) ?? { info, real: placed.real };
  }

  return { place, outsideGate, rulesGate, admitFile };
}

function dirEntry(e: Dirent): ProjectDirEntry {
  return {
    name: e.name,
    kind: e.isSymbolicLink() ? "link" : e.isDirectory() ? "folder" : e.isFile() ? "file" : "other",
  };
}

/**
 * The project-files door over the real file system: every project-controlled file the engine
 * reads goes through one of these. `admit` resolves the path to its real location (symlinks
 * and `..`), refuses what is not a regular file, what lies outside `roots` (unless `outside`
 * admits it) and what `rules` refuse (a hard-linked file is named as such, so the rules can
 * ask about it). `readText` then opens the real path with `O_NOFOLLOW | O_NONBLOCK` (no link
 * that appeared since is followed, and a file swapped for a FIFO cannot block), checks that
 * the open file is the one admitted and still lives at its real path (a folder swapped for a
 * link in between is caught), and reads at most `maxBytes`. `list` lists a folder without
 * following links inside it. Never rejects.
 */
export function createProjectFileReader(options: ProjectFileReaderOptions): ProjectFileReader {
  const { place, outsideGate, rulesGate, admitFile } = admission(options);
  return {
    async admit(asked): Promise<ProjectFileAdmission> {
      const admitted = await admitFile(asked);
      if ("ok" in admitted) return admitted;
      return { ok: true, path: resolve(asked), realPath: admitted.real, size: admitted.info.size };
    },

    async readText(asked, read = {}): Promise<ProjectFileText> {
      const path = resolve(asked);
      const admitted = await admitFile(path);
      if ("ok" in admitted) return admitted;
      const maxBytes = read.maxBytes ?? options.maxBytes ?? DEFAULT_PROJECT_FILE_BYTES;
      const got = await readVerified(admitted.real, admitted.info, maxBytes);
      if (typeof got === "string")
        return refusal(path, "unreadable", `${path} ${got}`, admitted.real);
      if (got.more && !read.cut)
        return refusal(
          path,
          "tooLarge",
          `${path} is larger than ${maxBytes} bytes, the most read from it`,
          admitted.real,
        );
      return {
        ok: true,
        path,
        realPath: admitted.real,
        size: admitted.info.size,
        text: got.bytes.toString("utf8"),
        cut: got.more,
      };
    },

    async list(asked): Promise<readonly ProjectDirEntry[] | undefined> {
      const path = resolve(asked);
      const placed = await place(path);
      if ("ok" in placed) return undefined;
      const facts = { path, realPath: placed.real, inside: placed.inside, hardLinked: false };
      if ((await outsideGate(facts)) ?? (await rulesGate(facts))) return undefined;
      const entries = await readdir(placed.real, { withFileTypes: true }).catch(() => undefined);
      if (entries === undefined) return undefined;
      return entries.map(dirEntry).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },

    async realPath(asked): Promise<string | undefined> {
      const real = await resolveReal(resolve(asked));
      return typeof real === "string" ? real : undefined;
    },
  };
}
