import type { EditorFiles } from "./editor-files.js";
import type {
  AgentId,
  CheckDefinition,
  CheckId,
  CheckRecord,
  JobId,
  JobInfo,
  LspOperation,
  Question,
  QuestionAnswers,
  TodoItem,
  ToolCallId,
} from "@z-engine/protocol";
import type { CommandRequest } from "./external.js";
import type { ToolOutput } from "./tool-output.js";

/**
 * Engine services behind small interfaces, so that no tool depends on the engine. The
 * engine implements them and offers the model only the tools whose ports are present.
 */

/** Subagents: the catalog, spawning (foreground, background, resume), applying a worktree agent's changes. */
export interface AgentPort {
  /** The agent types the model may spawn, with one line each. */
  catalog(): readonly { readonly name: string; readonly description: string }[];
  /**
   * Runs an agent. A foreground agent resolves with its final message, usage and changed
   * files; a background one at once with its job id. Aborting `signal` stops a foreground
   * agent (it resolves with what it has); a background agent hangs under the session.
   * Resolves with an error output for an unknown type or agent id; never rejects.
   */
  spawn(request: AgentSpawnRequest, signal: AbortSignal): Promise<ToolOutput>;
  /**
   * The absolute paths a worktree agent's changes would write in the project (for the
   * gate), or `null` when `agentId` has no changes waiting. Never rejects.
   */
  pendingChanges(agentId: string): Promise<readonly string[] | null>;
  /** Applies (or discards) a worktree agent's changes; resolves to a summary. Never rejects. */
  applyChanges(agentId: string, apply: boolean, signal: AbortSignal): Promise<ToolOutput>;
}

/** What the Agent tool asks the AgentPort for. */
export interface AgentSpawnRequest {
  readonly agentType: string;
  readonly description: string;
  readonly prompt: string;
  readonly background: boolean;
  /** Continue a finished agent from its stored transcript. */
  readonly resume?: string;
  readonly isolation?: "worktree";
  /** The call that spawns it (its agentStarted record names it). */
  readonly toolCallId?: string;
  /** The agent whose call it is (its depth and mode bound the new agent's). */
  readonly callerAgentId?: string;
}

/** The user, through the host: questions, plans, todos. */
export interface InteractionPort {
  /** Asks structured questions; resolves with the answers, or `null` when declined or cancelled. */
  ask(question: Question, signal: AbortSignal): Promise<QuestionAnswers | null>;
  /** Proposes a plan; resolves with the review. Aborting resolves as not approved. */
  proposePlan(plan: string, signal: AbortSignal): Promise<PlanReview>;
  /** Replaces the agent's todo list (recorded and emitted by the engine). Never throws. */
  updateTodos(todos: readonly TodoItem[]): void;
}

/** The user's answer to a proposed plan. */
export interface PlanReview {
  readonly approved: boolean;
  /** What the user wrote back, sent to the model. */
  readonly feedback?: string;
}

/** Background jobs: shells started with `run_in_background` and background agents. */
export interface JobPort {
  /** Starts a background shell in the agent's shell folder; resolves to the new job. */
  spawnShell(
    request: Omit<CommandRequest, "signal" | "onOutput">,
    description: string,
  ): Promise<JobInfo>;
  /** Output since the previous read, and the job's state; `null` for an unknown id. */
  readOutput(id: JobId): Promise<{ readonly job: JobInfo; readonly output: string } | null>;
  /** Kills a job's process tree; resolves to its final state, or `null` for an unknown id. */
  kill(id: JobId): Promise<JobInfo | null>;
  /** Every job of the session. */
  list(): readonly JobInfo[];
}

/** Skills: the catalog and loading one's body. */
export interface SkillPort {
  list(): readonly { readonly name: string; readonly description: string }[];
  /** The skill's instructions, or `null` for an unknown name. */
  load(name: string): Promise<string | null>;
}

/**
 * The session's checks. `checks()` and `defaultChecks()` are synchronous (Verify builds its
 * actions from them); `run` runs the given checks in order, records each run as evidence and
 * resolves with the records (a cancelled run is recorded with a null exit code). Never rejects
 * for a failing check; rejects only for an unknown id.
 */
export interface CheckPort {
  /** Every check of the session, discovered or configured. */
  checks(): readonly CheckDefinition[];
  /** The checks a Verify with no ids runs (the test checks selected for the changed paths, else every test check). */
  defaultChecks(): readonly CheckDefinition[];
  run(ids: readonly CheckId[], signal: AbortSignal): Promise<readonly CheckRecord[]>;
}

/** Language servers. */
export interface LspPort {
  /**
   * Answers one LSP query (definition, references, hover, implementation, callers and
   * callees, symbols, diagnostics, rename preview) as short text; a missing or failed server
   * is an error output. Never rejects.
   */
  query(request: LspQuery, signal: AbortSignal): Promise<ToolOutput>;
  /**
   * Fresh error diagnostics for a file just written, as lines, or `null` when none, no
   * server, or the server is not ready (it waits about 2 s at most). Never rejects.
   */
  diagnosticsAfterWrite(path: string, signal: AbortSignal): Promise<string | null>;
}

/** One LSP query. */
export interface LspQuery {
  readonly operation: LspOperation;
  /** Real absolute path. */
  readonly filePath: string;
  /** 1-based. */
  readonly line?: number;
  /** 1-based column. */
  readonly character?: number;
  /** A name in the file, instead of (or, with `line`, on that line of) a position. */
  readonly symbol?: string;
  readonly query?: string;
  readonly newName?: string;
}

/**
 * MCP servers: call tools, list and read resources, load deferred tool definitions. Each
 * method resolves with the result for the model (a server that is gone, a timeout or a
 * protocol error is an error output); none rejects, except on cancellation.
 */
export interface McpPort {
  /** Calls `tool` of `server` (their own names, not the sanitized ones). */
  callTool(
    server: string,
    tool: string,
    input: unknown,
    signal: AbortSignal,
    options?: McpCallOptions,
  ): Promise<ToolOutput>;
  /** The resources of one server, or of every ready server when `server` is undefined. */
  listResources(server: string | undefined, signal: AbortSignal): Promise<ToolOutput>;
  readResource(server: string, uri: string, signal: AbortSignal): Promise<ToolOutput>;
  /** Adds the definitions of deferred MCP tools (by their `mcp__` names) from the next request on. */
  loadTools(names: readonly string[]): Promise<ToolOutput>;
  /** A server's name as `mcp__` rules write it (sanitized), or undefined for an unknown server. */
  ruleName(server: string): string | undefined;
  /** The ready servers that offer resources, by their own names (what ListMcpResources lists). */
  resourceServers(): readonly string[];
}

/** What an MCP call may be told while it runs. */
export interface McpCallOptions {
  /** A progress notification of the server, as text (the engine emits `toolProgress`). */
  readonly onProgress?: (text: string) => void;
  /** Whether image content may be returned as image blocks. */
  readonly vision?: boolean;
}

/** The tool call that asks the side model, so that its spend is attributed to it. */
export interface SideModelCaller {
  readonly toolName: string;
  readonly agentId: AgentId;
  readonly toolCallId: ToolCallId;
}

/** The fast side model, for WebFetch extraction. */
export interface SideModelPort {
  /**
   * Answers `prompt` about `content`; rejects on a model failure (the tool reports it),
   * including a call the session's cost cap refused. `caller` names the tool call asking.
   */
  complete(
    prompt: string,
    content: string,
    signal: AbortSignal,
    caller?: SideModelCaller,
  ): Promise<string>;
}

/** The ports a ToolCtx may carry; a missing one means the engine does not offer the tools that need it. */
export interface ToolPorts {
  readonly agents?: AgentPort;
  readonly interaction?: InteractionPort;
  readonly jobs?: JobPort;
  readonly skills?: SkillPort;
  readonly checks?: CheckPort;
  readonly lsp?: LspPort;
  readonly mcp?: McpPort;
  readonly sideModel?: SideModelPort;
  /**
   * A host's editor for text files (ACP's client fs): when present, Read and the file-change
   * tools read (and, when it can, write) through it. No tool requires it.
   */
  readonly editor?: EditorFiles;
}

/** The name of a port, as a tool's `requires` lists them. */
export type PortName = keyof ToolPorts;
