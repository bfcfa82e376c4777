import { stat } from "node:fs/promises";

/**
 * The size and modification time of a file, as the tracker compares them; or, for a file read
 * through a host's editor (`ToolPorts.editor`), a `digest` of the text the editor held, which
 * is then what the tracker compares (an editor's unsaved buffer has no size or time on disk).
 */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly digest?: string;
}

/** Whether an edit may go ahead: the reason is written for the model. */
export type EditCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * An agent's read-before-edit memory: which files it read and how they looked then. An edit
 * of a file the agent did not read, or that changed since, is refused. Keyed by real
 * absolute path. Not shared between agents.
 */
export interface FileTracker {
  /** Records that the agent read the file as it is now (also after its own write). */
  record(path: string, stamp: FileStamp): void;
  /** Whether `path`, now stamped `current` (null when it is gone), may be edited. Never throws. */
  checkEditable(path: string, current: FileStamp | null): EditCheck;
  /** True when the agent read the file. */
  has(path: string): boolean;
  /**
   * The files read whose size or time changed since (or that were deleted), in the order
   * they were first read, for the "changed outside the agent" reminder. Files read through a
   * host's editor (a stamp with a `digest`) are left out: the editor shows their changes to
   * the user, and an edit of one that changed is still refused. Never rejects.
   */
  changedSinceRead(): Promise<string[]>;
  /** Forgets one file (e.g. after it was deleted). */
  forget(path: string): void;
  /** Forgets everything (a rewind of the conversation). */
  reset(): void;
}

/** A file's stamp, or null when it does not exist or is not a file. Never rejects. */
export async function stampOf(path: string): Promise<FileStamp | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** `seen` is what the agent read: a digest stamp compares digests, a disk stamp size and time. */
function sameStamp(seen: FileStamp, now: FileStamp): boolean {
  if (seen.digest !== undefined) return now.digest === seen.digest;
  return seen.size === now.size && seen.mtimeMs === now.mtimeMs;
}

/** A new, empty {@link FileTracker}. */
export function createFileTracker(): FileTracker {
  const stamps = new Map<string, FileStamp>();
  return {
    record(path, stamp) {
      stamps.set(path, {
        size: stamp.size,
        mtimeMs: stamp.mtimeMs,
        ...(stamp.digest === undefined ? {} : { digest: stamp.digest }),
      });
    },
    checkEditable(path, current) {
      const seen = stamps.get(path);
      if (!seen) {
        return {
          ok: false,
          reason: `File has not been read yet. Read ${path} first, then edit it.`,
        };
      }
      if (current === null) {
        return { ok: false, reason: `${path} no longer exists; it was deleted after it was read.` };
      }
      if (!sameStamp(seen, current)) {
        return {
          ok: false,
          reason: `${path} was modified since it was read (by the user or another process). Read it again before editing.`,
        };
      }
      return { ok: true };
    },
    has: (path) => stamps.has(path),
    async changedSinceRead() {
      const entries = [...stamps.entries()].filter(([, seen]) => seen.digest === undefined);
      const now = await Promise.all(entries.map(([path]) => stampOf(path)));
      return entries
        .filter(([, seen], i) => {
          const current = now[i];
          return current == null || !sameStamp(seen, current);
        })
        .map(([path]) => path);
    },
    forget: (path) => void stamps.delete(path),
    reset: () => stamps.clear(),
  };
}
