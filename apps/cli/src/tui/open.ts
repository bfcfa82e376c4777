import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type Env, loadSettings, type Paths, resolvePaths, TrustStore } from "@z-engine/config";
import {
  createEngine,
  type Engine,
  readSessionView,
  type SessionHandle,
  type SessionView,
} from "@z-engine/engine";
import type { EventEnvelope, PermissionMode } from "@z-engine/protocol";
import type { InteractiveArgs } from "../args.js";
import { takeEnvironment } from "../environment.js";
import type { Opened, Pick } from "./opened.js";
import type { ViewStore } from "./store.js";
import type { SlashCommand } from "./complete.js";
import { type Item, itemId, type Target, type View } from "./view.js";

/** A failure to open the session: one line for stderr and the exit code. */
export class OpenError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

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

/** Opens (or creates) the session; every event goes to `onEvent`, from the first. */
export async function openSession(
  engine: Engine,
  args: InteractiveArgs,
  root: string,
  id: string | undefined,
  onEvent: (envelope: EventEnvelope) => void,
): Promise<SessionHandle> {
  const options = {
    onEvent,
    ...(args.mode ? { mode: args.mode } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.maxTurns ? { maxTurns: args.maxTurns } : {}),
  };
  if (id === undefined) return engine.createSession(root, options);
  try {
    return await engine.openSession(id, options);
  } catch (error) {
    throw new OpenError(1, `cannot resume ${id}: ${(error as Error).message}`);
  }
}

/** The mode and model a new session starts with, as the settings say (for the status line). */
export function startingState(env: Env, paths: Paths, root: string, args: InteractiveArgs) {
  const trusted = new TrustStore(paths.trustFile).isTrusted(root);
  const { settings } = loadSettings({ env, paths, projectRoot: root, trusted });
  return {
    mode: (args.mode ?? settings.permissions.mode ?? "ask") as PermissionMode,
    model: args.model ?? settings.model.main,
  };
}

/** The view with a resumed session's conversation, rewind targets and state added. */
export function withHistory(view: View, history: SessionView, args: InteractiveArgs): View {
  const items: Item[] = [];
  const targets: Target[] = [];
  for (const m of history.messages) {
    items.push({ id: itemId(), kind: m.role, text: m.text });
    if (m.role === "user") targets.push({ messageId: m.messageId, text: m.text });
  }
  const title = history.title ? `: ${history.title}` : "";
  items.push({
    id: itemId(),
    kind: "info",
    text: `── resumed${title} (${history.messages.length} messages)`,
  });
  return {
    ...view,
    // After what is already on screen (printed lines cannot move).
    items: [...view.items, ...items],
    targets: [...targets, ...view.targets],
    mode: args.mode ?? history.mode ?? view.mode,
    model: args.model ?? history.model ?? view.model,
    usage: history.totalUsage,
  };
}

/** The stored conversation of a resumed session; undefined for a new one or an unreadable log. */
export async function historyOf(session: SessionHandle, resumed: boolean) {
  if (!resumed) return undefined;
  return readSessionView(session.logPath).catch(() => undefined);
}

/**
 * Keeps `view.commands` equal to the session's catalog (`SessionHandle.commands()`): read at
 * once, again when its MCP servers have settled (their prompts join), and on each call of
 * the returned refresh. A later read never overwrites a newer one. Never throws.
 */
export function watchCommands(session: SessionHandle, store: ViewStore): () => void {
  let asked = 0;
  const refresh = () => {
    const ask = ++asked;
    void session
      .commands()
      .then((list) => {
        if (ask !== asked) return;
        const commands: SlashCommand[] = list.map((c) => ({
          name: c.name,
          description: c.description,
          ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
        }));
        store.change((view) => ({ ...view, commands }));
      })
      .catch(() => {});
  };
  refresh();
  void session.mcp.settled().then(refresh, () => {});
  return refresh;
}

/**
 * Builds the engine and opens the session into `store` (its events from the first one;
 * a resumed session's conversation put first). Deletes the secret variables from `source`
 * once the engine has its copy. Rejects with `OpenError` for a folder or session that
 * cannot be opened.
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
  store.change((view) => ({ ...view, mode: start.mode, model: start.model }));
  const engine = await createEngine({ paths, env, catalogSource: "settings" });
  try {
    const id =
      args.resume === true ? await pick(engine, root) : await sessionToOpen(engine, args, root);
    const session = await openSession(engine, args, root, id, store.dispatch);
    const history = await historyOf(session, id !== undefined);
    if (history) store.change((view) => withHistory(view, history, args));
    const refreshCommands = watchCommands(session, store);
    return { engine, session, store, dataDir: paths.dataDir, refreshCommands };
  } catch (error) {
    await engine.shutdown();
    throw error;
  }
}
