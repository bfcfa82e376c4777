import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type Env, loadSettings, type Paths, TrustStore } from "@z-engine/config";
import {
  type Engine,
  readSessionHistory,
  type SessionHandle,
  type SessionHistory,
} from "@z-engine/engine";
import { emptyUsage, type EventEnvelope, type PermissionMode } from "@z-engine/protocol";
import type { InteractiveArgs } from "../args.js";
import { type Item, initialView, itemId, type Target, type View } from "./view.js";

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

/** The first view: for a resumed session, its conversation so far and its rewind targets. */
export function firstView(
  start: { mode: PermissionMode; model: string },
  history: SessionHistory | undefined,
  args: InteractiveArgs,
): View {
  if (!history) return initialView({ ...start, usage: emptyUsage() });
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
  return initialView({
    mode: args.mode ?? history.mode ?? start.mode,
    model: args.model ?? history.model ?? start.model,
    usage: history.totalUsage,
    items,
    targets,
  });
}

/** The stored conversation of a resumed session; undefined for a new one or an unreadable log. */
export async function historyOf(session: SessionHandle, resumed: boolean) {
  if (!resumed) return undefined;
  return readSessionHistory(session.logPath).catch(() => undefined);
}
