import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { McpTokenStore } from "@z-engine/integrations";
import type { InteractionPort } from "@z-engine/tools";
import type { McpReporter } from "./hub.js";
import { elicitationAnswer, elicitationQuestion } from "./elicit.js";
import type { McpSessionHooks } from "./hooks.js";

/** The token store of remote MCP servers: `<data>/mcp-auth` (0700, records 0600). */
export function mcpTokenStore(dataDir: string): McpTokenStore {
  return new McpTokenStore(join(dataDir, "mcp-auth"));
}

/** What a session's MCP hooks are built from. */
export interface SessionHooksInput {
  readonly headless: boolean;
  readonly interaction: Pick<InteractionPort, "ask">;
  readonly journal: McpReporter;
  /** The project root and the added directories, now. */
  readonly folders: () => readonly string[];
  readonly sample?: McpSessionHooks["sample"];
}

/**
 * A session's answers to its servers. Elicitation becomes a question card through the
 * InteractionPort (see `elicitationQuestion`); a headless session declines at once with a
 * notice naming the server and its message. Roots are the project and the added
 * directories as `file://` URIs. Sampling only when the host opted in.
 */
export function sessionMcpHooks(input: SessionHooksInput): McpSessionHooks {
  return {
    elicit: async (server, request, signal) => {
      if (input.headless) {
        await input.journal.notice(
          "warning",
          "mcp.elicitation",
          `The MCP server "${server}" asked for input ("${request.message.slice(0, 200)}"); declined: no one to ask in headless mode.`,
        );
        return { action: "decline" };
      }
      const question = elicitationQuestion(server, request);
      const answers = await input.interaction.ask(question, signal);
      return elicitationAnswer(request, question, answers);
    },
    roots: () =>
      input
        .folders()
        .map((dir) => ({ uri: pathToFileURL(dir).href, name: dir.split("/").pop() || dir })),
    ...(input.sample ? { sample: input.sample } : {}),
  };
}
