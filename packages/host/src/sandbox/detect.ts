import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import type { SandboxBackend } from "./backend.js";
import { BubblewrapSandbox } from "./bubblewrap.js";
import type { SandboxProfile } from "./profile.js";
import { SeatbeltSandbox } from "./seatbelt.js";
import { childEnvironment } from "../process/child-env.js";
import { signalGroup, spawnChild } from "../process/spawn-child.js";

/** The outcome of {@link detectSandbox}: a working backend, or why there is none. */
export type SandboxDetection =
  | { readonly backend: SandboxBackend; readonly reason: null }
  | { readonly backend: null; readonly reason: string };

/** Options for {@link detectSandbox}. */
export interface DetectSandboxOptions {
  /** Defaults to `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /** Try this backend instead of the platform's own. */
  readonly backend?: SandboxBackend;
  /** The folder the trial command may write (default the OS temporary folder). */
  readonly tmpDir?: string;
  /** How long the trial may take (default 10,000 ms). */
  readonly timeoutMs?: number;
}

function platformBackend(platform: NodeJS.Platform): SandboxBackend | string {
  if (platform === "linux") return new BubblewrapSandbox();
  if (platform === "darwin") return new SeatbeltSandbox();
  return `no sandbox backend for platform ${platform}`;
}

/** Runs the trial (PATH only in its environment, in the temporary folder); null when it worked. */
function runTrial(program: string, args: readonly string[], cwd: string, timeout: number) {
  return new Promise<string | null>((resolve) => {
    const child = spawnChild({
      program,
      args,
      folder: { path: cwd, reason: "engine" },
      env: childEnvironment({ PATH: process.env.PATH }),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const timer = setTimeout(() => signalGroup(child.pid, "SIGKILL"), timeout);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(null);
      else resolve(stderr.trim() || `exited with ${signal ?? `code ${code}`}`);
    });
  });
}

/**
 * Finds a working sandbox by running one trivial command (`true`) inside the platform's
 * backend (bubblewrap on Linux, seatbelt on macOS) with the network off. Never rejects:
 * when no backend works, `backend` is null and `reason` says why (for a notice; commands
 * then run unconfined).
 */
export async function detectSandbox(options: DetectSandboxOptions = {}): Promise<SandboxDetection> {
  const backend = options.backend ?? platformBackend(options.platform ?? process.platform);
  if (typeof backend === "string") return { backend: null, reason: backend };
  const dir = realpathSync(options.tmpDir ?? tmpdir());
  const profile: SandboxProfile = {
    root: dir,
    writable: [dir],
    readOnlyInside: [],
    network: false,
  };
  let failure: string | null;
  try {
    const wrapped = backend.wrap({ program: "true", args: [], cwd: dir }, profile);
    failure = await runTrial(wrapped.program, wrapped.args, dir, options.timeoutMs ?? 10_000);
    wrapped.release();
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  if (failure === null) return { backend, reason: null };
  return { backend: null, reason: `the ${backend.name} sandbox does not work here: ${failure}` };
}
