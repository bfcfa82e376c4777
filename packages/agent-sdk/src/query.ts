// `query()`: the Agent SDK's entry point, over an in-process engine.
import type { SlashCommandInfo } from "@z-engine/engine";
import { serverStates } from "./init-message.js";
import { type Prompt, QueryRun } from "./query-run.js";
import type {
  McpServerStatus,
  Options,
  PermissionMode,
  Query,
  SDKMessage,
  SlashCommand,
} from "./types.js";

function slashCommand(c: SlashCommandInfo): SlashCommand {
  return { name: c.name, description: c.description, argumentHint: c.argumentHint ?? "" };
}

/**
 * Starts a query: the engine and session open at once, and the generator yields the
 * `system` init message, then each turn's `assistant`, `user` (tool results) and (with
 * `includePartialMessages`) `stream_event` messages and its `result`. A string prompt is one
 * turn; a streamed prompt is a turn per user message, in order, until the stream ends.
 * Throws TypeError at once for an unknown permission mode. The generator throws AbortError
 * after `abortController` aborts, and the session's failure to open (an unknown `resume`
 * id, a missing `cwd`). Leaving the loop early closes the session.
 */
export function query(params: { prompt: Prompt; options?: Options }): Query {
  const run = new QueryRun(params.prompt, params.options ?? {});
  const driving = run.drive();
  const reader = run.channel.read();
  const stop = async () => {
    await run.close();
    await driving;
  };
  const generator: Query = {
    next: () => reader.next(),
    return: async (value) => {
      await stop();
      return reader.return(value);
    },
    throw: async (error) => {
      await stop();
      return reader.throw(error);
    },
    [Symbol.asyncIterator]() {
      return generator;
    },
    [Symbol.asyncDispose]: async () => {
      await stop();
    },
    interrupt: async () => {
      await run.ready;
      run.interrupt();
    },
    setPermissionMode: async (mode: PermissionMode) => {
      await run.ready;
      run.setPermissionMode(mode);
    },
    setModel: async (model?: string) => {
      const session = await run.ready;
      if (model) session.send({ type: "setModel", model });
    },
    supportedCommands: async () => (await (await run.ready).commands()).map(slashCommand),
    mcpServerStatus: async (): Promise<McpServerStatus[]> =>
      serverStates(await run.ready, run.setup),
  };
  return generator;
}

export type { SDKMessage };
