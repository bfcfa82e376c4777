import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { PRIVATE_DIR, PRIVATE_FILE } from "../private-modes.js";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type HashLength, countIndexEntries } from "../git-index.js";
import {
  ENGINE_ATTRIBUTES,
  type EngineRepository,
  engineConfigText,
} from "../engine-repository.js";
import { type GitOutput, type GitRunOptions, runGit, runGitScript } from "../git.js";

/**
 * How long one checkpoint git call may take by default (two minutes): git blocks for ever
 * opening a FIFO where it reads an ignore file, and the first tool that may write waits for
 * the snapshot.
 */
export const SNAPSHOT_GIT_TIME_LIMIT_MS = 2 * 60 * 1000;

/** The time limit and stop signal of a checkpoint store's git calls. */
export type GitLimits = Pick<GitRunOptions, "timeoutMs" | "signal">;

/** The ref every snapshot is chained on. */
export const CHECKPOINT_REF = "refs/z-engine/checkpoints";

const IDENTITY = {
  GIT_AUTHOR_NAME: "Z Engine",
  GIT_AUTHOR_EMAIL: "checkpoints@z-engine.invalid",
  GIT_COMMITTER_NAME: "Z Engine",
  GIT_COMMITTER_EMAIL: "checkpoints@z-engine.invalid",
};

/**
 * Per-call config on top of the neutral settings every engine git call gets: a split
 * index, so each index write is the few entries that changed, not the whole tree.
 */
const SHADOW_CONFIG = ["safe.directory=*", "core.splitIndex=true", "core.sharedRepository=0600"];

/** The shadow's `info/attributes` (see `ENGINE_ATTRIBUTES`). */
export const SHADOW_ATTRIBUTES = ENGINE_ATTRIBUTES;

/** The shadow's config file (see `engineConfigText`). */
const SHADOW_CONFIG_FILE = engineConfigText("sha1");

/** A small file's text, or null when it cannot be read. */
function readSmall(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** Options of one git call against the shadow repository. */
export interface ShadowGitOptions {
  readonly input?: string | Uint8Array;
  /** The index git uses (default the shadow's own). */
  readonly indexFile?: string;
  readonly okCodes?: number[];
}

/**
 * The shadow repository of one project: its own GIT_DIR (in the checkpoints folder),
 * GIT_WORK_TREE (the project) and GIT_INDEX_FILE, so the user's repository, index, hooks and
 * config are never read for writing or written.
 */
export class ShadowRepo {
  readonly gitDir: string;
  readonly indexFile: string;
  readonly projectRoot: string;
  /** The user's `core.excludesFile`, applied to the shadow repository too. */
  excludesFile: string | null = null;
  /** The length of the repository's object names (sha1 unless git made it sha256). */
  hashLength: HashLength = 20;
  /**
   * How long one git call on this repository (or reading the user's) may take, and the
   * signal that stops the calls in flight.
   */
  readonly limits: GitLimits;
  private readonly baseEnv: Readonly<Record<string, string | undefined>>;
  private ready: Promise<void> | undefined;

  constructor(
    checkpointsDir: string,
    projectRoot: string,
    env: Readonly<Record<string, string | undefined>>,
    timeLimitMs: number = SNAPSHOT_GIT_TIME_LIMIT_MS,
    signal?: AbortSignal,
  ) {
    this.limits = { timeoutMs: timeLimitMs, ...(signal ? { signal } : {}) };
    this.projectRoot = existsSync(projectRoot) ? realpathSync(projectRoot) : projectRoot;
    const id = createHash("sha256").update(this.projectRoot).digest("hex").slice(0, 16);
    this.gitDir = join(checkpointsDir, id);
    this.indexFile = join(this.gitDir, "index");
    this.baseEnv = env;
  }

  /** Creates the repository on first use. Rejects with a `HostError` when git fails. */
  init(): Promise<void> {
    this.ready ??= this.create();
    return this.ready;
  }

  /** Runs git against the shadow repository, with `indexFile` as its index (default its own). */
  git(args: readonly string[], options: ShadowGitOptions = {}): Promise<GitOutput> {
    return runGit(args, this.runOptions(options));
  }

  /**
   * Runs a `sh` script against the shadow repository whose git calls are written
   * `git "$@" <command>` (so they get the same per-call config as {@link git}); `env` adds
   * variables the script reads.
   */
  script(
    label: string,
    script: string,
    options: ShadowGitOptions & { env?: Record<string, string> } = {},
  ): Promise<GitOutput> {
    return runGitScript(label, script, this.runOptions(options));
  }

  /** The shadow as the git door names it: its folder, the project as work tree, `indexFile` (default its own). */
  repository(indexFile: string = this.indexFile): EngineRepository {
    return { kind: "engine", gitDir: this.gitDir, workTree: this.projectRoot, indexFile };
  }

  private runOptions(options: ShadowGitOptions & { env?: Record<string, string> }): GitRunOptions {
    const excludes = this.excludesFile ? [`core.excludesFile=${this.excludesFile}`] : [];
    return {
      repo: this.repository(options.indexFile),
      cwd: this.projectRoot,
      env: this.baseEnv,
      set: { ...options.env, ...IDENTITY },
      config: [...SHADOW_CONFIG, ...excludes],
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.okCodes === undefined ? {} : { okCodes: options.okCodes }),
      ...this.limits,
    };
  }

  /** Replaces `info/exclude` when its text changed; resolves to whether it did. */
  writeExclude(text: string): Promise<boolean> {
    return this.writeInfo("exclude", text);
  }

  /**
   * Replaces `info/<name>` when its text differs; resolves to whether it did. Synchronous
   * on purpose, like the layout in {@link create}: a few small files cost microseconds,
   * while each asynchronous step waits for a turn of an event loop that the first model
   * response and tool call keep busy, and the snapshot sits on the first tool's path.
   */
  private async writeInfo(name: string, text: string): Promise<boolean> {
    const file = join(this.gitDir, "info", name);
    let current: string | null = null;
    try {
      current = readFileSync(file, "utf8");
    } catch {
      // Not written yet.
    }
    if (current === text) return false;
    mkdirSync(join(this.gitDir, "info"), { recursive: true, mode: PRIVATE_DIR });
    writeFileSync(file, text, { mode: PRIVATE_FILE });
    return true;
  }

  /**
   * The number of files `indexFile` holds, read from the file itself (a split index
   * included), or counted by git when the file is not understood.
   */
  async countEntries(indexFile: string): Promise<number> {
    const count = await countIndexEntries(indexFile, this.gitDir, this.hashLength);
    if (count !== null) return count;
    const out = await this.git(["ls-files", "-z", "--cached"], { indexFile });
    let entries = 0;
    for (let at = out.stdout.indexOf(0); at >= 0; at = out.stdout.indexOf(0, at + 1)) entries++;
    return entries;
  }

  private async create(): Promise<void> {
    if (existsSync(join(this.gitDir, "HEAD"))) {
      await this.writeInfo("attributes", SHADOW_ATTRIBUTES);
      await this.readObjectFormat();
      return;
    }
    // Made in process, not by `git init`: a spawn from a large Node process costs more than
    // the whole layout (issue 18). Only the folders git needs to see a repository, and the
    // pack folder the first snapshot writes to (git makes the others when it needs them;
    // each folder costs on a slow disk). `HEAD` is written last, so a folder without it is
    // one whose creation did not finish, made again next time.
    for (const dir of ["objects/pack", "refs", "info"]) {
      mkdirSync(join(this.gitDir, dir), { recursive: true, mode: PRIVATE_DIR });
    }
    const own = { mode: PRIVATE_FILE };
    writeFileSync(join(this.gitDir, "config"), SHADOW_CONFIG_FILE, own);
    writeFileSync(join(this.gitDir, "project"), `${this.projectRoot}\n`, own);
    await this.writeInfo("attributes", SHADOW_ATTRIBUTES);
    writeFileSync(join(this.gitDir, "HEAD"), "ref: refs/heads/main\n", own);
    this.hashLength = 20;
  }

  /** The object format, from the repository's config (no spawn); git tells when that fails. */
  private async readObjectFormat(): Promise<void> {
    const config = await readFile(join(this.gitDir, "config"), "utf8").catch(() => null);
    if (config !== null) {
      const format = /^\s*objectformat\s*=\s*(\w+)/im.exec(config)?.[1]?.toLowerCase();
      this.hashLength = format === "sha256" ? 32 : 20;
      return;
    }
    // Git before 2.28 echoes an option it does not know: it only has sha1 then.
    const out = await this.git(["rev-parse", "--show-object-format"]);
    this.hashLength = out.stdout.toString("utf8").trim() === "sha256" ? 32 : 20;
  }

  /**
   * The commit `ref` (under `refs/`) points at, read from its loose file or `packed-refs`
   * without a spawn; git answers when neither is plain (a symbolic ref, another ref format).
   * Null when the ref does not exist.
   */
  async readRef(ref: string): Promise<string | null> {
    // Synchronous reads of small files (see writeInfo).
    const loose = readSmall(join(this.gitDir, ref));
    const hex = this.hashLength * 2;
    const name = new RegExp(`^[0-9a-f]{${hex}}$`);
    if (loose !== null && name.test(loose.trim())) return loose.trim();
    if (loose === null && !existsSync(join(this.gitDir, "reftable"))) {
      const packed = readSmall(join(this.gitDir, "packed-refs")) ?? "";
      for (const line of packed.split("\n")) {
        const [commit, path] = line.split(" ");
        if (path === ref && commit && name.test(commit)) return commit;
      }
      return null;
    }
    const out = await this.git(["rev-parse", "-q", "--verify", ref], { okCodes: [0, 1] });
    return out.code === 0 ? out.stdout.toString("utf8").trim() : null;
  }
}
