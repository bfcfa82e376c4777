import { readdir, readFile, realpath } from "node:fs/promises";

/** The file access instruction discovery needs; tests and hosts may pass their own. */
export interface InstructionFs {
  /** A file's UTF-8 text, or `undefined` when it does not exist or is not a file. Rejects on other I/O errors. */
  readFile(path: string): Promise<string | undefined>;
  /** A folder's entry names, or `undefined` when it does not exist. Rejects on other I/O errors. */
  listDir(path: string): Promise<string[] | undefined>;
  /**
   * The path with every symlink resolved, or `undefined` when nothing is there (a dangling
   * link included). Rejects on other I/O errors. Instruction files and imports are kept
   * inside their scope by this path.
   */
  realPath(path: string): Promise<string | undefined>;
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}

/** `InstructionFs` over the real filesystem. */
export const nodeInstructionFs: InstructionFs = {
  async readFile(path) {
    try {
      return await readFile(path, "utf8");
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },
  async realPath(path) {
    try {
      return await realpath(path);
    } catch (error) {
      if (isMissing(error) || (error as { code?: unknown }).code === "ELOOP") return undefined;
      throw error;
    }
  },
  async listDir(path) {
    try {
      return await readdir(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },
};
