import {
  type AcpTestClient,
  connectAcpTestClient,
  type PermissionAnswer,
  type SpawnedAgent,
  spawnAcpAgent,
} from "@z-engine/testkit";
import { MAIN, type World, type WorldOptions, world } from "./cli.test.helpers.js";

/** ACP protocol version 1 (what the SDK 2.4.0 speaks). */
export const PROTOCOL_VERSION = 1;

/** One `session/update`'s update, as the SDK's client types it. */
export type SessionUpdate = AcpTestClient["notifications"][number]["update"];

/** The client capabilities these tests offer (ACP's `ClientCapabilities`, in part). */
export interface Capabilities {
  readonly fs?: { readonly readTextFile?: boolean; readonly writeTextFile?: boolean };
  readonly terminal?: boolean;
}

/** A permission answer by option kind (`allow_once`, `reject_always`, ...), or none (it waits). */
export type AnswerByKind = (kinds: string[]) => string;

/** Worlds, the `zeng acp` children in them and the editors driving them, all gone at `dispose`. */
export class AcpRig {
  private readonly worlds: World[] = [];
  private readonly agents: SpawnedAgent[] = [];
  private readonly editors: AcpTestClient[] = [];

  /** A world (fixture repo, home, fake provider) removed at `dispose`, after its agents. */
  async world(options: WorldOptions): Promise<World> {
    const w = await world(options);
    this.worlds.push(w);
    return w;
  }

  /**
   * Starts `zeng acp` as a child over stdio in the world's repository, driven by the ACP SDK's
   * client side as an editor does (with the world's environment, or `env`). With `answer`, each
   * permission request is answered at once with the option of that kind; without it, requests
   * wait for `editor.nextPermission()`.
   */
  start(
    w: World,
    answer?: AnswerByKind,
    env: Readonly<Record<string, string>> = w.env,
  ): { agent: SpawnedAgent; editor: AcpTestClient } {
    const agent = spawnAcpAgent(process.execPath, [MAIN, "acp"], { env, cwd: w.repo.root });
    const editor = connectAcpTestClient(
      agent.stream,
      answer
        ? {
            onPermission: (request): PermissionAnswer => {
              const kind = answer(request.options.map((o) => o.kind));
              return request.options.find((o) => o.kind === kind)?.optionId ?? "cancelled";
            },
          }
        : {},
    );
    this.agents.push(agent);
    this.editors.push(editor);
    return { agent, editor };
  }

  /**
   * Closes the editors (each agent's stdin ends: it closes its sessions and exits, as it does
   * when an editor goes away), then waits until every agent has exited: only then may the
   * worlds go (an agent still closing writes into its data folder).
   */
  async dispose(): Promise<void> {
    for (const editor of this.editors.splice(0)) await editor.close();
    await Promise.all(this.agents.splice(0).map((agent) => stopAgent(agent)));
    for (const w of this.worlds.splice(0)) await w.dispose();
  }
}

/**
 * Resolves once `agent` has exited: its stdin is ended (it exits by itself then); one that is
 * still running after `backstopMs` is killed (a hung agent fails its test, it does not hang it).
 */
export async function stopAgent(agent: SpawnedAgent, backstopMs = 10_000): Promise<void> {
  const child = agent.child;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin?.end();
  const backstop = setTimeout(() => child.kill("SIGKILL"), backstopMs);
  await exited;
  clearTimeout(backstop);
}

/** `initialize` with the given capabilities (the answer is not needed). */
export async function initialize(
  editor: AcpTestClient,
  clientCapabilities: Capabilities = {},
): Promise<void> {
  await editor.agent.request("initialize", {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities,
  });
}

/** One text prompt in a session; resolves with the prompt's response. */
export function promptText(editor: AcpTestClient, sessionId: string, text: string) {
  return editor.agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text }],
  });
}

/** `initialize`, `session/new` in `cwd`, one text prompt. */
export async function promptOnce(
  editor: AcpTestClient,
  cwd: string,
  text: string,
  clientCapabilities: Capabilities = {},
) {
  await initialize(editor, clientCapabilities);
  const created = await editor.agent.request("session/new", { cwd, mcpServers: [] });
  const response = await promptText(editor, created.sessionId, text);
  return { sessionId: created.sessionId, response };
}

/** The text of every agent message chunk among `updates`, joined. */
export const messageText = (updates: SessionUpdate[]) =>
  updates
    .flatMap((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text"
        ? [u.content.text]
        : [],
    )
    .join("");
