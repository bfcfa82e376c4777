import { access, constants } from "node:fs/promises";
import { delimiter, join, resolve as resolvePath } from "node:path";
import { childEnvironment, spawnChild } from "@z-engine/host";

let bundled: Promise<string | null> | undefined;

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** @vscode/ripgrep's binary, when its platform package is installed. */
function bundledRipgrep(): Promise<string | null> {
  bundled ??= import("@vscode/ripgrep").then(
    async (module) => ((await executable(module.rgPath)) ? module.rgPath : null),
    () => null,
  );
  return bundled;
}

/** `rg` on a PATH (a `:`-separated folder list), or null. Never rejects. */
export async function pathRipgrep(pathVariable: string | undefined): Promise<string | null> {
  for (const folder of (pathVariable ?? "").split(delimiter)) {
    if (folder !== "" && (await executable(join(folder, "rg")))) return join(folder, "rg");
  }
  return null;
}

/**
 * The ripgrep to use: `option` when it is a path, none when it is null, else @vscode/ripgrep's
 * binary, else `rg` on the PATH. Null means the JS engine. Never rejects.
 */
export async function findRipgrep(
  option: string | null | undefined,
  pathVariable = process.env.PATH,
): Promise<string | null> {
  if (option === null) return null;
  if (option !== undefined) return (await executable(option)) ? option : null;
  return (await bundledRipgrep()) ?? (await pathRipgrep(pathVariable));
}

/** How a ripgrep run ended. */
export interface RipgrepResult {
  /** 0 found, 1 nothing found, 2 an error (possibly with partial output); null when killed. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs ripgrep to its end, through host's door (the environment without secrets, in the
 * folder the gated Grep or Glob call searches). Rejects when it cannot start; aborting kills it.
 */
export function runRipgrep(
  rg: string,
  args: readonly string[],
  cwd: string,
  signal: AbortSignal,
): Promise<RipgrepResult> {
  return new Promise((resolve, reject) => {
    const child = spawnChild({
      program: rg,
      args,
      folder: { path: resolvePath(cwd), reason: "approvedCommand" },
      env: childEnvironment(process.env),
      stdio: ["ignore", "pipe", "pipe"],
      group: false,
      signal,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => reject(error));
    child.on("close", (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}
