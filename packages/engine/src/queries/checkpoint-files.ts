import { execFile } from "node:child_process";
import { safeGitCommand } from "@z-engine/host";

/** A file as a checkpoint stored it: its bytes and git mode (`100644`, `100755`, `120000` for a link). */
export interface StoredFile {
  readonly bytes: Buffer;
  readonly mode: string;
}

const TIME_LIMIT_MS = 30_000;
/** A checkpoint stores files up to 8 MiB; a little more leaves room for git's own output. */
const MAX_OUTPUT = 9 * 1024 * 1024;

/**
 * Runs one read-only git command against a checkpoint store's shadow repository (its own
 * GIT_DIR, no work tree, the engine's neutral settings, no inherited GIT_* variable).
 */
function shadowGit(
  gitDir: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<Buffer> {
  const command = safeGitCommand(args, { env, set: { GIT_DIR: gitDir } });
  return new Promise((resolve, reject) => {
    execFile(
      command.program,
      command.args,
      {
        env: command.env,
        encoding: "buffer",
        maxBuffer: MAX_OUTPUT,
        timeout: TIME_LIMIT_MS,
        windowsHide: true,
      },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
}

/**
 * The file at `path` (project-relative, `/`-separated) in checkpoint `commit`, or null when
 * that checkpoint has no such file. Rejects when git fails (an unknown commit, say).
 */
export async function readStoredFile(
  gitDir: string,
  commit: string,
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<StoredFile | null> {
  const listing = await shadowGit(
    gitDir,
    ["--literal-pathspecs", "ls-tree", "-z", "--full-tree", commit, "--", path],
    env,
  );
  const entry = listing.toString("utf8").split("\0")[0] ?? "";
  const match = /^(\d{6}) blob ([0-9a-f]{40,64})\t/.exec(entry);
  if (!match) return null;
  const bytes = await shadowGit(gitDir, ["cat-file", "blob", match[2] as string], env);
  return { bytes, mode: match[1] as string };
}
