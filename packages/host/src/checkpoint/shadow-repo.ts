import { createHash } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import { mkdir, open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type GitOutput, cleanGitEnv, runGit } from "../git.js";

/** The ref every snapshot is chained on. */
export const CHECKPOINT_REF = "refs/z-engine/checkpoints";

const IDENTITY = {
  GIT_AUTHOR_NAME: "Z Engine",
  GIT_AUTHOR_EMAIL: "checkpoints@z-engine.invalid",
  GIT_COMMITTER_NAME: "Z Engine",
  GIT_COMMITTER_EMAIL: "checkpoints@z-engine.invalid",
};

/** Per-call config: no hooks, no fsmonitor, no signing, whatever any config file says. */
const SAFE_CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "commit.gpgSign=false",
  "-c",
  "safe.directory=*",
];

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
  private readonly baseEnv: Record<string, string>;
  private ready: Promise<void> | undefined;

  constructor(
    checkpointsDir: string,
    projectRoot: string,
    env: Readonly<Record<string, string | undefined>>,
  ) {
    this.projectRoot = existsSync(projectRoot) ? realpathSync(projectRoot) : projectRoot;
    const id = createHash("sha256").update(this.projectRoot).digest("hex").slice(0, 16);
    this.gitDir = join(checkpointsDir, id);
    this.indexFile = join(this.gitDir, "index");
    this.baseEnv = cleanGitEnv(env, {
      ...IDENTITY,
      GIT_DIR: this.gitDir,
      GIT_WORK_TREE: this.projectRoot,
    });
  }

  /** Creates the repository on first use. Rejects with a `HostError` when git fails. */
  init(): Promise<void> {
    this.ready ??= this.create();
    return this.ready;
  }

  /** Runs git against the shadow repository, with `indexFile` as its index (default its own). */
  git(
    args: readonly string[],
    options: { input?: string | Uint8Array; indexFile?: string; okCodes?: number[] } = {},
  ): Promise<GitOutput> {
    const env = { ...this.baseEnv, GIT_INDEX_FILE: options.indexFile ?? this.indexFile };
    const excludes = this.excludesFile ? ["-c", `core.excludesFile=${this.excludesFile}`] : [];
    return runGit([...SAFE_CONFIG, ...excludes, ...args], {
      cwd: this.projectRoot,
      env,
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.okCodes === undefined ? {} : { okCodes: options.okCodes }),
    });
  }

  /** Replaces `info/exclude` when its text changed; resolves to whether it did. */
  async writeExclude(text: string): Promise<boolean> {
    const file = join(this.gitDir, "info", "exclude");
    const current = await readFile(file, "utf8").catch(() => null);
    if (current === text) return false;
    await mkdir(join(this.gitDir, "info"), { recursive: true });
    await writeFile(file, text);
    return true;
  }

  private async create(): Promise<void> {
    if (existsSync(join(this.gitDir, "HEAD"))) return;
    await mkdir(this.gitDir, { recursive: true });
    await this.git(["init", "-q"]);
    const settings: [string, string][] = [
      ["core.autocrlf", "false"],
      ["core.safecrlf", "false"],
      ["core.symlinks", "true"],
      ["core.fileMode", "true"],
      ["index.version", "4"],
      ["core.quotePath", "false"],
      ["gc.auto", "0"],
    ];
    for (const [key, value] of settings) await this.git(["config", key, value]);
    await writeFile(join(this.gitDir, "project"), `${this.projectRoot}\n`);
  }
}

/** The number of entries in a git index file (0 when there is none); reads its 12-byte header. */
export async function indexEntryCount(indexFile: string): Promise<number> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(indexFile, "r");
    const header = Buffer.alloc(12);
    const { bytesRead } = await handle.read(header, 0, 12, 0);
    if (bytesRead < 12 || header.toString("latin1", 0, 4) !== "DIRC") return 0;
    return header.readUInt32BE(8);
  } catch {
    return 0;
  } finally {
    await handle?.close();
  }
}
