import {
  type AgentContext,
  type ClientCapabilities,
  type McpServer,
  RequestError,
} from "@agentclientprotocol/sdk";
import { readSessionView, type SessionHandle, type SessionOptions } from "@z-engine/engine";
import { AcpSession, type QueueItem } from "./acp-session.js";
import { clientEditor } from "./client-editor.js";
import { clientTerminalShell } from "./client-shell.js";
import { authRequired } from "./initialize.js";
import type { AcpAgentOptions } from "./options.js";
import { OrderedQueue } from "./ordered-queue.js";
import { replayUpdates } from "./replay.js";
import { availableCommands } from "./rewind-command.js";
import { mcpSettings } from "./session-config.js";

/** What opening a session takes of its connection. */
export interface OpenDeps {
  readonly options: AcpAgentOptions;
  readonly client: AgentContext;
  readonly capabilities: ClientCapabilities;
  readonly onError: (error: unknown) => void;
}

/** Which session to open: a new one in `cwd`, or a stored one (replayed for `load`). */
export type OpenHow =
  | { readonly kind: "new"; readonly cwd: string; readonly mcpServers: readonly McpServer[] }
  | {
      readonly kind: "load" | "resume";
      readonly sessionId: string;
      readonly cwd: string;
      readonly mcpServers: readonly McpServer[];
    };

/** The session options of an ACP session: the host's, the client's editor, terminals and MCP servers. */
function sessionOptions(
  deps: OpenDeps,
  how: OpenHow,
  queue: OrderedQueue<QueueItem>,
  id: () => string,
): SessionOptions {
  const editor = clientEditor(deps.client, id, deps.capabilities);
  const shell = deps.capabilities.terminal
    ? clientTerminalShell({
        client: deps.client,
        get sessionId() {
          return id();
        },
        onTerminal: (toolCallId, terminalId) =>
          queue.push({ kind: "terminal", toolCallId, terminalId }),
      })
    : undefined;
  const settings = mcpSettings(how.mcpServers);
  return {
    ...deps.options.session,
    onEvent: (envelope) => queue.push({ kind: "event", envelope }),
    ...(editor ? { editor } : {}),
    ...(shell ? { shell } : {}),
    ...(settings ? { settings } : {}),
  };
}

async function openHandle(deps: OpenDeps, how: OpenHow, options: SessionOptions) {
  const engine = deps.options.engine;
  if (how.kind === "new") return engine.createSession(how.cwd, options);
  try {
    return await engine.openSession(how.sessionId, options);
  } catch (error) {
    const known = (await engine.listSessions()).some((s) => s.id === how.sessionId);
    if (!known) throw RequestError.sessionNotFound(how.sessionId);
    throw RequestError.internalError(undefined, (error as Error).message);
  }
}

/**
 * Opens an engine session for ACP: refuses with `auth_required` while the folder's provider
 * has no key; joins the client's MCP servers, editor (fs) and terminals to the session; for
 * `load`, sends the stored conversation as updates before it resolves. The session's own
 * updates (the command list, events of the opening) wait until the caller starts its queue,
 * after the response. Rejects with ACP errors (`auth_required`, resource not found).
 */
export async function openAcpSession(deps: OpenDeps, how: OpenHow): Promise<AcpSession> {
  const key = await deps.options.engine.providerKey(how.cwd);
  if (key.needed && !key.found) throw authRequired(key);
  let session: AcpSession | undefined;
  const queue = new OrderedQueue<QueueItem>(
    (item) => (session ? session.handleItem(item) : Promise.resolve()),
    deps.onError,
  );
  let id = "";
  const handle: SessionHandle = await openHandle(
    deps,
    how,
    sessionOptions(deps, how, queue, () => id),
  );
  id = handle.id;
  const view = await readSessionView(handle.logPath).catch(() => undefined);
  session = new AcpSession({
    handle,
    client: deps.client,
    capabilities: deps.capabilities,
    queue,
    mode: view?.mode ?? deps.options.session?.mode ?? "ask",
    model: view?.model ?? deps.options.session?.model ?? "",
    models: deps.options.models ?? [],
    onError: deps.onError,
  });
  if (how.kind === "load")
    for (const update of await replayUpdates(handle)) await session.send(update);
  const commands = await handle.commands();
  queue.push({
    kind: "update",
    update: {
      sessionUpdate: "available_commands_update",
      availableCommands: availableCommands(commands),
    },
  });
  return session;
}
