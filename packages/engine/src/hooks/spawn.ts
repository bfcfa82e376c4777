import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { type ChildEnvironment, type ChildFolder, signalGroup, spawnChild } from "@z-engine/host";

/** How one hook command ended. */
export interface HookProcessResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Why it could not start. */
  readonly error?: string;
}

export interface HookProcessRequest {
  readonly command: string;
  readonly stdin: string;
  /** Where it runs: the project once trusted, else the engine's neutral folder. */
  readonly folder: ChildFolder;
  /** The scrubbed environment it starts from, and the hook's own variables over it. */
  readonly env: ChildEnvironment;
  readonly extraEnv?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Output past this many characters per stream is dropped. */
  readonly maxOutputChars?: number;
}

const killGroup = (pid: number | undefined) => signalGroup(pid, "SIGKILL");

/**
 * Runs a hook command with `bash -c` (hooks are never sandboxed; `--norc`, since bash would read ~/.bashrc when stdin is a socket, as Node's pipes are), writes the JSON input to
 * its stdin and collects stdout and stderr apart. Started through host's door (`spawnChild`):
 * a scrubbed environment, in `folder`. The process runs in its own group, so a timeout or an
 * abort kills everything it started. Never rejects.
 */
export function runHookProcess(request: HookProcessRequest): Promise<HookProcessResult> {
  const limit = request.maxOutputChars ?? 256 * 1024;
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let settled = false;
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawnChild({
        program: "bash",
        args: ["--norc", "--noprofile", "-c", request.command],
        folder: request.folder,
        env: request.env,
        ...(request.extraEnv ? { extraEnv: request.extraEnv } : {}),
      });
    } catch (error) {
      resolve({ exitCode: null, stdout: "", stderr: "", timedOut: false, error: String(error) });
      return;
    }
    const finish = (result: HookProcessResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      resolve(result);
    };
    const onAbort = () => killGroup(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, request.timeoutMs);
    request.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < limit) stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < limit) stderr += chunk;
    });
    child.stdin.on("error", () => {
      // the hook may exit without reading its input
    });
    child.stdin.end(request.stdin);
    child.on("error", (error) =>
      finish({ exitCode: null, stdout, stderr, timedOut, error: error.message }),
    );
    child.on("close", (code) =>
      finish({ exitCode: timedOut ? null : code, stdout, stderr, timedOut }),
    );
  });
}
