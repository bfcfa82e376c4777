import { runGit, splitNul } from "./git.js";

/**
 * The files of `folder`'s repository under `folder` that git lists as tracked or untracked
 * and not ignored (`ls-files --cached --others --exclude-standard`), relative to `folder`
 * with `/`, in git's order; the user's own `core.excludesFile` applies. Through the git door
 * (a read-only call on the user's repository). Null when `folder` is in no repository git
 * accepts, or git fails or runs past `timeoutMs` (default two minutes). Never rejects.
 */
export async function listRepositoryFiles(
  folder: string,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs = 2 * 60 * 1000,
): Promise<string[] | null> {
  try {
    const out = await runGit(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      repo: { kind: "user", folder },
      env,
      userConfig: true,
      timeoutMs,
    });
    return splitNul(out.stdout);
  } catch {
    return null;
  }
}
