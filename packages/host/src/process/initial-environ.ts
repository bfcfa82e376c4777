import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";

/** What {@link eraseInitialEnvironment} did. */
export interface EnvironErasure {
  /** The names whose `NAME=value` entry was overwritten in the initial environment block. */
  readonly erased: readonly string[];
  /** Why the block could not be changed (not Linux, /proc unreadable); the names are still out of `env`. */
  readonly unavailable?: string;
}

/** `env_start` and `env_end` of `/proc/self/stat` (fields 50 and 51, Linux 3.5 and later). */
function environBounds(): { start: number; end: number } | string {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The command name (field 2) may hold spaces and parentheses: count from its last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start || start === 0)
    return "/proc/self/stat gives no environment block";
  return { start, end };
}

/** The offsets and lengths of each `NAME=value` entry of `block` whose name is in `names`. */
function entriesOf(block: Buffer, names: ReadonlySet<string>) {
  const found: { name: string; offset: number; length: number }[] = [];
  let offset = 0;
  while (offset < block.length) {
    let end = block.indexOf(0, offset);
    if (end < 0) end = block.length;
    const entry = block.toString("latin1", offset, end);
    const name = entry.slice(0, Math.max(0, entry.indexOf("=")));
    if (names.has(name)) found.push({ name, offset, length: end - offset });
    offset = end + 1;
  }
  return found;
}

/**
 * Takes `names` out of this process's environment for good: deletes them from `env` (the
 * caller passes `process.env`, so libc forgets them), then, on Linux, overwrites their
 * `NAME=value` entries with zero bytes in the environment block the process started with,
 * through `/proc/self/mem` (bounds from `/proc/self/stat`). That block is what
 * `/proc/<pid>/environ` shows, to any process of the same user (a project's `npm test`
 * walking its parents, say); deleting from `process.env` alone does not change it. The
 * caller keeps the values it needs first. Never throws: a block that cannot be changed is
 * reported in `unavailable`. What it does not cover: this process's heap still holds the
 * values, readable through `/proc/<pid>/mem` by whoever may ptrace it (root, or the same user
 * where Yama's `ptrace_scope` is 0).
 */
export function eraseInitialEnvironment(
  names: readonly string[],
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): EnvironErasure {
  for (const name of names) delete env[name];
  if (names.length === 0) return { erased: [] };
  if (platform !== "linux") return { erased: [], unavailable: `no /proc/self/mem on ${platform}` };
  let fd: number | undefined;
  try {
    const bounds = environBounds();
    if (typeof bounds === "string") return { erased: [], unavailable: bounds };
    fd = openSync("/proc/self/mem", "r+");
    const block = Buffer.alloc(bounds.end - bounds.start);
    readSync(fd, block, 0, block.length, bounds.start);
    const erased: string[] = [];
    for (const entry of entriesOf(block, new Set(names))) {
      // Positions as numbers: Node's bigint positions fail on /proc/self/mem.
      writeSync(fd, Buffer.alloc(entry.length), 0, entry.length, bounds.start + entry.offset);
      erased.push(entry.name);
    }
    return { erased };
  } catch (error) {
    return { erased: [], unavailable: (error as Error).message };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
