import type { EngineCommand, EventEnvelope, SessionId, TurnId } from "@z-engine/protocol";
import type { SlashCommandInfo } from "../commands/catalog.js";
import type { CommandResult } from "../commands/result.js";
import type { SessionMcp } from "../mcp/prompts.js";
import type { RepoMapStatus } from "../repo-map/map-status.js";
import type { TurnSummary } from "../run/turn.js";

export interface SessionHandle {
  readonly id: SessionId;
  /** The real path of the project folder. */
  readonly projectRoot: string;
  /** The session's log.jsonl (hooks get it as `transcript_path`). */
  readonly logPath: string;
  /**
   * Sends a command; it is handled in order. An invalid command is answered with a notice.
   * Never throws. For a submit, returns the id of the turn it starts (its `turnId`, else a new one).
   */
  send(command: EngineCommand): TurnId | undefined;
  /** Resolves with the summary of the next turn that ends (whichever it is). */
  nextTurnEnd(): Promise<TurnSummary>;
  /** Resolves with the summary of the turn of this id once it ends (register before it can end). */
  turnEnd(turnId: TurnId): Promise<TurnSummary>;
  /** Submits a prompt and resolves with the summary of the turn it started, even with concurrent callers. */
  run(prompt: string): Promise<TurnSummary>;
  /**
   * The session's events from now on, in order, until it closes (the loop then ends).
   * Each call is its own subscription; leaving the loop unsubscribes.
   */
  events(): AsyncIterable<EventEnvelope>;
  /** Resolves once no command is pending and no turn runs. */
  idle(): Promise<void>;
  /** Where the repo map stands and its size in the prompt (for `/context`). Never throws. */
  repoMap(): RepoMapStatus;
  /** Resolves when no repo map build is running, with its status then. Never rejects. */
  repoMapIdle(): Promise<RepoMapStatus>;
  /** Stops the running turn, kills the session's jobs, runs SessionEnd hooks and closes the log. */
  close(): Promise<void>;
  /** The session's MCP servers: states, a wait for starts, and prompts as slash commands. */
  readonly mcp: SessionMcp;
  /**
   * The `/` commands a UI offers for completion, in precedence order (engine built-ins,
   * custom commands, prompt built-ins, MCP prompts of ready servers), each name once, with
   * description and argument hint. Custom files are read on each call. Never rejects.
   */
  commands(): Promise<SlashCommandInfo[]>;
  /**
   * Runs `/name args` in the command order (like `runCommand`) and resolves with what it did:
   * an engine built-in's `output` (markdown, also emitted as `commandOutput`), a `notice`
   * (unknown name, a prompt that cannot run), or for a prompt command the `turn`'s summary
   * once it ended. Rejects only when the session's log cannot be written.
   */
  command(name: string, args?: string): Promise<CommandResult>;
}
