import { existsSync, type FSWatcher, watch } from "node:fs";
import { basename, dirname, relative, sep } from "node:path";

/** Told, debounced, that a watched file may have changed (written, created, renamed or removed). */
export type FileListener = (file: string) => void;

/** How long a file's events are gathered before its listeners hear of them (editors write in steps). */
export const SETTINGS_DEBOUNCE_MS = 75;

/**
 * One file's watch: the kernel's notification (inotify, FSEvents; `fs.watch`, never a polling
 * loop) on the folder that holds it, or, while that folder does not exist, on its nearest
 * existing ancestor, moving down as the folders appear. Watching the folder and not the file
 * sees an editor's save by rename and a file created after the session opened. Reads nothing:
 * what the file holds is for the settings loader. Never keeps the process alive.
 */
class FileWatch {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  readonly listeners = new Set<FileListener>();

  constructor(
    readonly file: string,
    private readonly debounceMs: number,
  ) {
    this.arm();
  }

  private arm(): void {
    if (this.closed) return;
    this.watcher?.close();
    this.watcher = undefined;
    let folder = dirname(this.file);
    while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
    // The next name on the way down to the file (the file's own name when its folder exists).
    const rest = relative(folder, this.file).split(sep);
    const next = rest[0] ?? basename(this.file);
    const deeper = rest.length > 1;
    try {
      const watcher = watch(folder, { persistent: false });
      watcher.on("change", (_kind, name) => {
        const named = typeof name === "string" ? name : name?.toString();
        if (named !== undefined && named !== next) return;
        // A folder on the way appeared (or the watched folder went): watch from where it is now.
        if (deeper || !existsSync(folder)) this.arm();
        this.touched();
      });
      watcher.on("error", () => {
        this.arm();
        this.touched();
      });
      this.watcher = watcher;
    } catch {
      // A folder that cannot be watched (no permission) stays unwatched; one that went between
      // the check and the watch is looked for again from higher up.
      if (!existsSync(folder)) this.arm();
    }
  }

  private touched(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      for (const listener of [...this.listeners]) listener(this.file);
    }, this.debounceMs);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.watcher?.close();
  }
}

/**
 * The engine's file watches, one per file however many sessions listen (sessions of one
 * project share its files' watch, every session the user's). {@link FileWatches.close} stops
 * them all (the engine's shutdown).
 */
export class FileWatches {
  private readonly watches = new Map<string, FileWatch>();
  private closed = false;

  constructor(private readonly debounceMs = SETTINGS_DEBOUNCE_MS) {}

  /**
   * Calls `listener` (debounced) each time `file` may have changed; returns the stop. The
   * file's watch ends with its last listener. Never throws (a folder that cannot be watched is
   * watched from its parent). After {@link close}, nothing is watched.
   */
  watch(file: string, listener: FileListener): () => void {
    if (this.closed) return () => {};
    let entry = this.watches.get(file);
    if (!entry) {
      entry = new FileWatch(file, this.debounceMs);
      this.watches.set(file, entry);
    }
    const watched = entry;
    watched.listeners.add(listener);
    return () => {
      watched.listeners.delete(listener);
      if (watched.listeners.size > 0 || this.watches.get(file) !== watched) return;
      this.watches.delete(file);
      watched.close();
    };
  }

  /** How many files are watched now (for tests and status). */
  get size(): number {
    return this.watches.size;
  }

  /** Stops every watch. */
  close(): void {
    this.closed = true;
    for (const entry of this.watches.values()) entry.close();
    this.watches.clear();
  }
}
