import type { HookRunner } from "../hooks/runner.js";
import type { InstructionTracker, ReminderQueue } from "@z-engine/context";
import type { Shell, ShellSession } from "@z-engine/host";
import type {
  AgentId,
  Effort,
  Message,
  PermissionMode,
  SystemSection,
  ToolSpec,
} from "@z-engine/protocol";
import { type FileTracker, type Tool, type ToolPorts, toolSpec } from "@z-engine/tools";
import type { SandboxState } from "./session-core.js";
import type { Journal } from "../journal/journal.js";

/**
 * What a worktree agent runs with in place of the session's (issue 38, item 11): a shell
 * whose sandbox has the agent's root as its writable root, the sandbox facts its gate
 * auto-allows by, and ports whose background shells and checks run there too. A real model
 * uses the absolute paths its prompt gives it, so its environment section names the
 * worktree as well (see {@link worktreeSystem}).
 */
export interface Confinement {
  readonly shell: Shell;
  readonly sandbox: SandboxState;
  readonly ports: ToolPorts;
}

/**
 * What an agent is: its type, prompt, tools, model and limits. The values that may change
 * while it runs (the main agent's model, mode and effort follow the host's commands; its
 * system sections gain the repo map once ready; trust may reload `max_turns`) are read
 * through functions, each round (or each call, for the mode).
 */
export interface AgentDefinition {
  /** `main`, or the subagent's type (`general`, `explore`, a custom definition's name). */
  readonly agentType: string;
  /** The cache-stable system sections of each request. */
  readonly system: () => readonly SystemSection[];
  /**
   * The tools this agent may call: the request lists their specs, and the gate finds calls
   * only among them (a call to any other tool is answered "unknown tool").
   */
  readonly tools: readonly Tool[];
  /** Whether the session's MCP tools join this agent's requests and its gate. */
  readonly mcpTools: boolean;
  /** Which of the MCP tools, when `mcpTools` (a subagent's definition may name some): all when absent. */
  readonly mcpFilter?: (tool: string) => boolean;
  readonly model: () => string;
  readonly effort: () => Effort | undefined;
  /** The permission mode each call is decided under (a subagent's rule of bypass lives in its caller). */
  readonly mode: () => PermissionMode;
  /** The rounds this agent may take in one run (agents.max_turns). */
  readonly maxTurns: () => number;
  /** The hooks its events run, when its definition adds its own; the session's when absent. */
  readonly hooks?: HookRunner;
}

/**
 * Where an agent run's records go and its working set comes from. The main agent's is the
 * session log; a subagent's is its own `agents/<id>.jsonl` (see `Journal.forAgent`). Its
 * events leave through the session's event sink, carrying the agent's id when it has one.
 * `record` appends first and emits after (record before emit); it rejects when the record
 * cannot be written, which ends the run as failed.
 */
export interface TranscriptSink extends Pick<Journal, "record" | "emit" | "notice" | "redactor"> {
  /** The working set for the next request, as the records appended so far fold to. */
  workingSet(): Message[];
}

/** A sink over a journal and a fold of what it recorded. */
export function transcriptSink(journal: Journal, workingSet: () => Message[]): TranscriptSink {
  return {
    record: (kind, fields, event, scope) => journal.record(kind, fields, event, scope),
    emit: (event, scope) => journal.emit(event, scope),
    notice: (level, code, message, scope) => journal.notice(level, code, message, scope),
    redactor: journal.redactor,
    workingSet,
  };
}

/**
 * One agent's run, as the loop's phases see it: the agent, its transcript, the folder it
 * works in, its depth, its cancellation, and its own working state. The session's shared
 * services (policy state, approvals, hooks, catalog, clients, MCP, the cost cap) come beside
 * it: each phase takes only the part of the `SessionCore` it uses (`StreamCore`, `GateCore`,
 * `StopCore`, ..., joined in `AgentRunCore`).
 */
export interface AgentRun {
  readonly agent: AgentDefinition;
  readonly transcript: TranscriptSink;
  /** The agent's root: the project, or a worktree agent's worktree. Tools and the policy use it. */
  readonly root: string;
  /** 0 for the main agent; a subagent's parent's depth plus one. */
  readonly depth: number;
  /** Set for a subagent; its events carry it, and its tool calls' contexts name it. */
  readonly agentId?: AgentId;
  /** The run's cancellation: a child of its parent's (the turn's, for the main agent). */
  readonly signal: AbortSignal;
  /** Reminders for this agent's next user message. */
  readonly reminders: ReminderQueue;
  /** The nested instructions and rules this agent has been shown. */
  readonly instructions: InstructionTracker;
  /** Read-before-edit tracking of this agent's reads. */
  readonly files: FileTracker;
  /** This agent's persistent shell (its cwd). */
  readonly shellSession: ShellSession;
  /**
   * A worktree agent's own shell, sandbox facts and ports (rooted at its worktree); the
   * session's when absent.
   */
  readonly confinement?: Confinement;
}

/** The specs of an agent's own tools (its MCP tools are added per request). */
export function agentToolSpecs(agent: AgentDefinition): ToolSpec[] {
  return agent.tools.map(toolSpec);
}
