// `zeng acp`: the engine as an ACP agent on stdio, and `zeng acp login` (ACP's terminal auth).
import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type Env, resolvePaths } from "@z-engine/config";
import { createEngine, type SessionOverrides } from "@z-engine/engine";
import { guardConsole } from "./console-guard.js";
import type { DoorArgs } from "./doors-args.js";
import { EXIT } from "./exit-codes.js";
import type { Io } from "./output/result.js";
import { watchSignals } from "./signals.js";

/** The folder `--cwd` names (default the working directory), or null when it is none. */
export async function doorFolder(dir: string | undefined, io: Io): Promise<string | null> {
  const full = resolve(dir ?? process.cwd());
  if (!(await stat(full).catch(() => undefined))?.isDirectory()) {
    io.stderr(`zeng: --cwd ${dir}: no such folder\n`);
    return null;
  }
  return realpath(full);
}

/** The command line's choices for every session the door opens. */
export function doorOverrides(args: DoorArgs): SessionOverrides {
  return {
    ...(args.mode ? { mode: args.mode } : {}),
    ...(args.model ? { model: args.model } : {}),
  };
}

/**
 * `zeng acp`: serves ACP on stdin/stdout until the client closes its end (or SIGINT/SIGTERM),
 * then closes the sessions and exits 0. stdout carries the protocol alone: whatever a library
 * prints goes to stderr. Resolves 2 for a `--cwd` that is no folder.
 */
export async function runAcp(args: DoorArgs, io: Io, env: Env, version: string): Promise<number> {
  guardConsole(io.stderr);
  const folder = await doorFolder(args.cwd, io);
  if (!folder) return EXIT.usage;
  const engine = await createEngine({ paths: resolvePaths(env), env, catalogSource: "settings" });
  const { serveAcpStdio } = await import("@z-engine/acp");
  const connection = serveAcpStdio({
    engine,
    folder,
    session: doorOverrides(args),
    agentInfo: { name: "zeng", title: "Z Engine", version },
    terminalLoginArgs: ["login"],
    ...(args.model ? { models: [args.model] } : {}),
  });
  const signals = watchSignals(() => connection.close());
  try {
    await connection.closed.catch(() => {});
  } finally {
    signals.dispose();
    await engine.shutdown();
  }
  return EXIT.ok;
}

/** Reads one line from stdin; on a terminal nothing is echoed (a key is being typed). */
function readSecretLine(): Promise<string> {
  return new Promise((resolvePromise) => {
    const input = process.stdin;
    let text = "";
    const tty = input.isTTY === true;
    if (tty) input.setRawMode(true);
    input.setEncoding("utf8");
    const done = () => {
      input.off("data", onData);
      input.off("end", done);
      if (tty) input.setRawMode(false);
      input.pause();
      resolvePromise(text.trim());
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return done();
        if (ch === "\u0003") {
          text = "";
          return done();
        }
        if (ch === "\u007f") text = text.slice(0, -1);
        else text += ch;
      }
    };
    input.on("data", onData);
    input.on("end", done);
    input.resume();
  });
}

/**
 * `zeng acp login`: asks for an API key on the terminal and stores it in auth.json (0600) for
 * the provider sessions of the folder use. Resolves 0 when stored, 1 when no key was given or
 * it could not be stored, 2 for a bad `--cwd`.
 */
export async function runAcpLogin(cwd: string | undefined, io: Io, env: Env): Promise<number> {
  const folder = await doorFolder(cwd, io);
  if (!folder) return EXIT.usage;
  const engine = await createEngine({ paths: resolvePaths(env), env });
  try {
    const status = await engine.providerKey(folder);
    io.stderr(`API key for ${status.host ?? "the provider"}: `);
    const key = await readSecretLine();
    io.stderr("\n");
    if (key === "") {
      io.stderr("zeng: no key was given; nothing was stored\n");
      return EXIT.failed;
    }
    const host = await engine.storeProviderKey(folder, key);
    io.stderr(`Stored the key for ${host} in auth.json.\n`);
    return EXIT.ok;
  } catch (error) {
    io.stderr(`zeng: ${(error as Error).message}\n`);
    return EXIT.failed;
  } finally {
    await engine.shutdown();
  }
}
