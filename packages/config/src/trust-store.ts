import { readFileSync, realpathSync, renameSync } from "node:fs";
import { resolve } from "node:path";
import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import { writeFileAtomic } from "./atomic-write.js";
import { ConfigError } from "./errors.js";

const TrustFile = lazily(() =>
  z.object({
    v: z.literal(2),
    folders: z.array(z.object({ path: z.string(), trusted_at: z.string() })),
  }),
);
type TrustFile = z.infer<typeof TrustFile>;

/** Anything that can say whether a folder is trusted. */
export interface TrustChecker {
  isTrusted(folder: string): boolean;
}

/** The real path of a folder; its resolved path when it does not exist (yet). */
function canonical(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return resolve(folder);
  }
}

/**
 * The record of trusted folders, `<dataDir>/trust.json`
 * (`{ "v": 2, "folders": [{ "path", "trusted_at" }] }`). Trust is per folder, matched
 * exactly after resolving symlinks: subfolders and worktrees need their own entry.
 * The file is re-read on every call, so other processes' changes are seen.
 */
export class TrustStore implements TrustChecker {
  readonly file: string;
  private readonly now: () => Date;
  /** Serialises this process's writes, so concurrent trust() calls lose nothing. */
  private writing: Promise<void> = Promise.resolve();

  constructor(file: string, options: { now?: () => Date } = {}) {
    this.file = file;
    this.now = options.now ?? (() => new Date());
  }

  /** The trusted folders. A missing or damaged file trusts nothing; never throws. */
  list(): TrustFile["folders"] {
    return this.read().folders;
  }

  /** Whether exactly this folder (after realpath) is trusted. Never throws. */
  isTrusted(folder: string): boolean {
    const path = canonical(folder);
    return this.list().some((entry) => entry.path === path);
  }

  /**
   * Records a folder as trusted (its real path), writing the file atomically (temp +
   * rename). Idempotent. A damaged trust.json is moved aside to `trust.json.damaged` first.
   * Rejects with ConfigError `trustWriteFailed` when the file cannot be written.
   */
  trust(folder: string): Promise<void> {
    const next = this.writing.then(() => this.add(canonical(folder)));
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async add(path: string): Promise<void> {
    try {
      const current = this.read({ moveDamagedAside: true });
      if (current.folders.some((entry) => entry.path === path)) return;
      current.folders.push({ path, trusted_at: this.now().toISOString() });
      // In the data folder, the user's alone (issue 38, item 24).
      await writeFileAtomic(this.file, `${JSON.stringify(current, null, 2)}\n`, 0o600);
    } catch (cause) {
      throw new ConfigError("trustWriteFailed", `cannot write ${this.file}`, { cause });
    }
  }

  private read(options: { moveDamagedAside?: boolean } = {}): TrustFile {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return { v: 2, folders: [] };
    }
    try {
      return TrustFile.parse(JSON.parse(text));
    } catch {
      if (options.moveDamagedAside) renameSync(this.file, `${this.file}.damaged`);
      return { v: 2, folders: [] };
    }
  }
}
