import { isAbsolute } from "node:path";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { badgeLabel, type Engine, type SessionOverrides } from "@z-engine/engine";
import { PERMISSION_MODES } from "@z-engine/protocol";
import { z } from "zod";
import { runTask, type TaskRequest, type TaskResult } from "./task-run.js";
import { sessionResources, transcriptOf } from "./transcripts.js";

/** The options of {@link createTaskServer}. */
export interface TaskServerOptions {
  /** The engine tasks run on (the host owns it; make it `headless`: no one answers its asks). */
  readonly engine: Engine;
  /** The folder a task without `cwd` runs in (its settings and trust apply). */
  readonly folder: string;
  /** The engine's data folder (`resolvePaths(env).dataDir`), where the transcripts are read from. */
  readonly dataDir: string;
  /** What every session opens with (the host's `--permission-mode`, `--model`): the mode caps a caller's. */
  readonly session?: SessionOverrides;
  /** What the server says it is (default `z-engine` 0.0.0). */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** The sessions this server ran, shared by the servers of one host (its resources list them). */
  readonly ran?: Set<string>;
}

function schemas() {
  const mode = z
    .enum(PERMISSION_MODES)
    .optional()
    .describe("A stricter permission mode for this task; the folder's settings cap it");
  return {
    task: {
      prompt: z.string().min(1).describe("What to do, as you would ask a coding agent"),
      cwd: z.string().optional().describe("The project folder (absolute); default: the server's"),
      permission_mode: mode,
    },
    reply: {
      session_id: z.string().min(1).describe("The sessionId a task or reply returned"),
      prompt: z.string().min(1).describe("The next message of that conversation"),
      permission_mode: mode,
    },
    output: {
      sessionId: z.string(),
      outcome: z.string().nullable(),
      answer: z.string(),
      badge: z.object({ status: z.string(), reason: z.string(), checks: z.array(z.string()) }),
      changedFiles: z.array(z.string()),
      mode: z.string(),
      reason: z.string().optional(),
    },
  };
}

/** The tool result: the answer, then the session, the outcome, the badge and the files. */
export function toolResult(result: TaskResult): CallToolResult {
  const files = result.changedFiles.length > 0 ? result.changedFiles.join(", ") : "none";
  const footer = [
    `Session ${result.sessionId} (continue it with the reply tool) · ${result.outcome ?? "no turn ran"}${result.reason ? `: ${result.reason}` : ""}`,
    `${badgeLabel(result.badge)}: ${result.badge.reason}`,
    `Changed files: ${files}`,
  ].join("\n");
  const { usage: _, ...structured } = result;
  return {
    content: [{ type: "text", text: `${result.answer || "(no answer)"}\n\n${footer}` }],
    structuredContent: { ...structured },
    isError: result.outcome === "failed",
  };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * An MCP server (the SDK's `McpServer`) whose `task` tool runs a prompt in a new session of a
 * folder and `reply` continues a session, each returning the answer, the badge and the changed
 * files (text and structured). Progress notifications follow the tool calls when the caller
 * gave a progress token; a cancelled request cancels the turn. Resources
 * `zeng://sessions/{sessionId}` hold the transcripts of the sessions it ran and of its folder.
 * Nothing runs outside the engine's gate.
 */
export function createTaskServer(options: TaskServerOptions): McpServer {
  const s = schemas();
  const ran = options.ran ?? new Set<string>();
  const source = { engine: options.engine, dataDir: options.dataDir, folder: options.folder, ran };
  const server = new McpServer(options.serverInfo ?? { name: "z-engine", version: "0.0.0" });
  const run = async (request: TaskRequest, extra: Extra): Promise<CallToolResult> => {
    try {
      const result = await runTask(options.engine, request, options.session ?? {}, {
        signal: extra.signal,
        ...progressOf(extra),
      });
      ran.add(result.sessionId);
      return toolResult(result);
    } catch (error) {
      return failure(`The task could not run: ${(error as Error).message}`);
    }
  };
  server.registerTool(
    "task",
    {
      title: "Delegate a coding task to Z Engine",
      description:
        "Runs a prompt as a Z Engine coding agent in a project folder, inside that folder's permission settings (calls that would ask are denied), and returns its answer, the verification badge and the files it changed. Continue the conversation with reply.",
      inputSchema: s.task,
      outputSchema: s.output,
    },
    async (args, extra) => {
      const cwd = args.cwd ?? options.folder;
      if (!isAbsolute(cwd)) return failure(`cwd must be an absolute path (got ${cwd})`);
      return run(
        {
          kind: "task",
          prompt: args.prompt,
          cwd,
          ...(args.permission_mode ? { mode: args.permission_mode } : {}),
        },
        extra,
      );
    },
  );
  server.registerTool(
    "reply",
    {
      title: "Continue a Z Engine session",
      description:
        "Sends the next message to a session a task (or reply) started, and returns the same fields.",
      inputSchema: s.reply,
      outputSchema: s.output,
    },
    (args, extra) =>
      run(
        {
          kind: "reply",
          prompt: args.prompt,
          sessionId: args.session_id,
          ...(args.permission_mode ? { mode: args.permission_mode } : {}),
        },
        extra,
      ),
  );
  registerSessionResource(server, source);
  return server;
}

/** What the SDK hands a tool callback besides its arguments. */
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The task's steps as progress notifications, when the caller gave a progress token. */
function progressOf(extra: Extra): { onStep?: (progress: number, message: string) => void } {
  const token = extra._meta?.progressToken;
  if (token === undefined) return {};
  return {
    onStep: (progress, message) =>
      void extra
        .sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress, message },
        })
        .catch(() => {}),
  };
}

/** The `zeng://sessions/{sessionId}` resources: the transcripts of the sessions it ran and of its folder. */
function registerSessionResource(
  server: McpServer,
  source: Parameters<typeof sessionResources>[0],
): void {
  server.registerResource(
    "session",
    new ResourceTemplate("zeng://sessions/{sessionId}", {
      list: async () => ({ resources: await sessionResources(source) }),
    }),
    { title: "Session transcript", mimeType: "text/markdown" },
    async (uri, { sessionId }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "text/markdown",
          text: await transcriptOf(source, String(sessionId)),
        },
      ],
    }),
  );
}
