import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type Env, loadSettings, type Paths, resolvePaths, TrustStore } from "@z-engine/config";
import { createEngine, type Engine, keySource } from "@z-engine/engine";
import type { PermissionMode } from "@z-engine/protocol";
import type { InteractiveArgs } from "../args.js";
import { takeEnvironment } from "../environment.js";
import { startHostTelemetry } from "../host-telemetry.js";
import { OpenError } from "./open-error.js";
import type { Opened, Pick } from "./opened.js";
import { SessionSlot } from "./session-slot.js";
import type { ViewStore } from "./store.js";
import { buildHeader, keyLine } from "./header.js";
import { add, type Header } from "./view.js";

export { OpenError } from "./open-error.js";

/** The real path of the project folder; exit 2 when it does not exist. */
export async function projectFolder(dir: string): Promise<string> {
  const full = resolve(dir);
  const info = await stat(full).catch(() => undefined);
  if (!info?.isDirectory()) throw new OpenError(2, `--cwd ${dir}: no such folder`);
  return realpath(full);
}

/** The session id `--resume ID` or `--continue` names, undefined for a new session. */
export async function sessionToOpen(
  engine: Engine,
  args: InteractiveArgs,
  root: string,
): Promise<string | undefined> {
  if (args.continue) {
    const latest = await engine.latestSession(root);
    if (!latest) throw new OpenError(1, `no session to continue in ${root}`);
    return latest.id;
  }
  return typeof args.resume === "string" ? args.resume : undefined;
}

/** What a new session starts with, as the settings say (for the header and the status line). */
export function startingState(env: Env, paths: Paths, root: string, args: InteractiveArgs) {
  const trusted = new TrustStore(paths.trustFile).isTrusted(root);
  const { settings } = loadSettings({ env, paths, projectRoot: root, trusted });
  return {
    mode: (args.mode ?? settings.permissions.mode ?? "ask") as PermissionMode,
    model: args.model ?? settings.model.main,
    trusted,
    provider: settings.provider,
    theme: settings.appearance.theme,
    showThinking: settings.appearance.show_thinking,
  };
}

/**
 * Builds the engine and opens the session into `store` (its events from the first one;
 * a resumed session's conversation put first, after the welcome header). Deletes the
 * secret variables from `source` once the engine has its copy. Rejects with `OpenError` for
 * a folder or session that cannot be opened.
 */
export async function openInteractive(
  args: InteractiveArgs,
  env: Env,
  source: NodeJS.ProcessEnv,
  pick: Pick,
  store: ViewStore,
): Promise<Opened> {
  takeEnvironment(source);
  const root = await projectFolder(args.cwd ?? process.cwd());
  const paths = resolvePaths(env);
  const start = startingState(env, paths, root, args);
  const key = keyLine(await keySource({ env, dataDir: paths.dataDir, provider: start.provider }));
  const header: Header = await buildHeader(root, start, key);
  store.change((view) => ({
    ...add(view, { kind: "header", header }),
    mode: start.mode,
    model: start.model,
    trusted: start.trusted,
    theme: start.theme,
    showThinking: start.showThinking,
  }));
  // The log goes to the data folder's file, at debug with --debug: the screen is the UI's.
  const telemetry = await startHostTelemetry(env, paths.dataDir, args.debug === true, {
    stderr: false,
  });
  const engine = await createEngine({
    paths,
    env,
    catalogSource: "settings",
    ...(telemetry.logger ? { logger: telemetry.logger } : {}),
  });
  try {
    const id =
      args.resume === true ? await pick(engine, root) : await sessionToOpen(engine, args, root);
    const slot = new SessionSlot({ engine, root, args, store, dataDir: paths.dataDir });
    await slot.open(id);
    return {
      engine,
      flushTelemetry: telemetry.flush,
      slot,
      store,
      dataDir: paths.dataDir,
      header,
      start,
    };
  } catch (error) {
    await engine.shutdown();
    await telemetry.flush();
    throw error;
  }
}
