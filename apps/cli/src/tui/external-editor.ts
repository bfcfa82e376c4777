import { childEnvironment, spawnChild } from "@z-engine/engine";

/** How a run of the user's editor went. */
export type EditorOutcome =
  | { readonly ok: true; readonly editor: string }
  | { readonly ok: false; readonly editor: string; readonly problem: string };

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The editors to try, in order, each as its words: `$VISUAL`, else `$EDITOR` (split on
 * white space, as `code -w` or `emacs -nw`; no shell, so no quoting), else `vi`, then `nano`
 * when `vi` is not installed. Pure.
 */
export function editorCommands(env: Env): string[][] {
  const configured = env.VISUAL?.trim() || env.EDITOR?.trim();
  return configured ? [configured.split(/\s+/)] : [["vi"], ["nano"]];
}

type Attempt = { readonly kind: "done" } | { readonly kind: "missing" | "failed"; problem: string };

/** One editor on `file`, holding the terminal until it exits. Never rejects. */
function attempt(words: readonly string[], file: string, env: Env, folder: string) {
  const [program = "", ...args] = words;
  return new Promise<Attempt>((resolve) => {
    try {
      // The child-process door: the user's own program, from the scrubbed environment (no
      // provider key reaches it; PATH entries inside the project are dropped, so a project
      // cannot plant a `vi`), in the project folder, on this terminal (stdio inherited) and
      // in zeng's process group, so that it is in the foreground and Ctrl+Z suspends both.
      const child = spawnChild({
        program,
        args: [...args, file],
        folder: { path: folder, reason: "userChosen" },
        env: childEnvironment(env, { exclude: [folder] }),
        stdio: "inherit",
        group: false,
      });
      child.once("error", (error: NodeJS.ErrnoException) =>
        resolve({
          kind: error.code === "ENOENT" ? "missing" : "failed",
          problem: error.code === "ENOENT" ? "was not found" : `could not start (${error.message})`,
        }),
      );
      child.once("exit", (code, signal) =>
        resolve(
          code === 0
            ? { kind: "done" }
            : {
                kind: "failed",
                problem: signal ? `was ended by ${signal}` : `exited with ${code}`,
              },
        ),
      );
    } catch (error) {
      resolve({ kind: "failed", problem: `could not start (${(error as Error).message})` });
    }
  });
}

/**
 * Runs the user's editor ({@link editorCommands}) on `file` in `folder` and resolves once it
 * has exited: `ok` when it exited 0, else what went wrong (not found, could not start, a
 * non-zero exit, a signal). The caller hands it the terminal first. Ctrl+C while it runs goes
 * to the editor alone (zeng ignores SIGINT meanwhile). Never rejects.
 */
export async function runEditor(file: string, env: Env, folder: string): Promise<EditorOutcome> {
  const ignore = () => {};
  process.on("SIGINT", ignore);
  try {
    const commands = editorCommands(env);
    let last: EditorOutcome = { ok: false, editor: "vi", problem: "was not found" };
    for (const words of commands) {
      const editor = words.join(" ");
      const result = await attempt(words, file, env, folder);
      if (result.kind === "done") return { ok: true, editor };
      last = { ok: false, editor, problem: result.problem };
      if (result.kind !== "missing") break;
    }
    return last;
  } finally {
    process.off("SIGINT", ignore);
  }
}
