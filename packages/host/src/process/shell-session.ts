import { randomBytes } from "node:crypto";
import { readFileSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Shell, ShellSession } from "../shell.js";

/** Options for {@link createShellSession}. */
export interface ShellSessionOptions {
  /** The folder the session starts in (absolute); also where it falls back to if its folder disappears. */
  readonly cwd: string;
  /** Where the small per-command folder-report files go (default the OS temporary folder). */
  readonly tmpDir?: string;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readReportedCwd(file: string): string | undefined {
  try {
    const text = readFileSync(file, "utf8").replace(/\n$/, "");
    return text.length > 0 && isDirectory(text) ? text : undefined;
  } catch {
    return undefined;
  } finally {
    // unlink, not rm: rm loads Node's recursive-removal code on first use, after each
    // command, on the round's path.
    try {
      unlinkSync(file);
    } catch {
      // Not written (the command ended the shell first).
    }
  }
}

const TRAP = `trap '__zeng_status=$?; pwd > "$__ZENG_CWD_FILE" 2>/dev/null; exit $__zeng_status' EXIT`;

/**
 * An agent's persistent shell over a {@link Shell} whose program is POSIX-like (bash, zsh,
 * sh). Each command runs in the session's folder with an EXIT trap that writes the folder it
 * ended in to a private temporary file, so a `cd` holds for the next command (also after
 * `exit N`); the trap prints nothing, so the model never sees it. The exit status is the
 * command's own. If the session's folder has been removed, the next command starts in the
 * initial folder. Never rejects.
 */
export function createShellSession(shell: Shell, options: ShellSessionOptions): ShellSession {
  let cwd = options.cwd;
  const dir = options.tmpDir ?? tmpdir();
  return {
    get cwd() {
      return cwd;
    },
    run: async (request) => {
      if (!isDirectory(cwd)) cwd = options.cwd;
      const report = join(dir, `zeng-cwd-${randomBytes(8).toString("hex")}`);
      const command = `${TRAP}\n${request.command}\n`;
      const env = { ...request.env, __ZENG_CWD_FILE: report };
      const result = await shell.run({ ...request, command, cwd, env });
      const next = readReportedCwd(report);
      if (next !== undefined) cwd = next;
      return result;
    },
  };
}
