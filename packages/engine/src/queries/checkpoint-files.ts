import { runGit } from "@z-engine/host";

/** A file as a checkpoint stored it: its bytes and git mode (`100644`, `100755`, `120000` for a link). */
export interface StoredFile {
  readonly bytes: Buffer;
  readonly mode: string;
}

const TIME_LIMIT_MS = 30_000;

/**
 * Runs one read-only git command against a checkpoint store's shadow repository through the
 * git door (an engine repository: its own GIT_DIR, no work tree, the neutral settings, no
 * inherited GIT_* variable).
 */
async function shadowGit(
  gitDir: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<Buffer> {
  const out = await runGit(args, {
    repo: { kind: "engine", gitDir },
    env,
    timeoutMs: TIME_LIMIT_MS,
  });
  return out.stdout;
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
