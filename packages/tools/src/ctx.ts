import type { AgentId, ArtifactSink, SessionId, ToolCallId } from "@z-engine/protocol";
import type { Shell, ShellSession } from "./external.js";
import type { FileTracker } from "./file-tracker.js";
import type { PathLocks } from "./path-locks.js";
import type { ToolPorts } from "./ports.js";

/** Size and count limits the tools keep to. */
export interface ToolLimits {
  /** Lines Read returns when no `limit` is given (default 2000). */
  readonly readMaxLines: number;
  /** Longer lines are cut by Read and Grep (default 2000 characters). */
  readonly maxLineChars: number;
  /** Largest file Read and Edit load (default 50 MB). */
  readonly maxFileBytes: number;
  /** Output kept inline before the rest goes to the artifact sink (default 30,000 characters). */
  readonly maxOutputChars: number;
  /** Paths Glob lists at most (default 100). */
  readonly globMaxResults: number;
  /** Bash timeout when none is given, and the largest one accepted (defaults 2 and 10 minutes). */
  readonly bashDefaultTimeoutMs: number;
  readonly bashMaxTimeoutMs: number;
}

/** The default {@link ToolLimits}. */
export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  readMaxLines: 2000,
  maxLineChars: 2000,
  maxFileBytes: 50 * 1024 * 1024,
  maxOutputChars: 30_000,
  globMaxResults: 100,
  bashDefaultTimeoutMs: 120_000,
  bashMaxTimeoutMs: 600_000,
};

/** The web client and its options (WebFetch, WebSearch). */
export interface WebOptions {
  /** The fetch to use (default the global one); tests and proxies pass their own. */
  readonly fetch?: typeof fetch;
  /** A SearXNG-style JSON endpoint, e.g. `https://search.example/search`; WebSearch errors when unset. */
  readonly searchUrl?: string;
  /** Headers sent with every WebSearch request (an API key for the endpoint, say). */
  readonly searchHeaders?: Readonly<Record<string, string>>;
  readonly userAgent?: string;
  /** Largest response body read (default 10 MB). */
  readonly maxBytes?: number;
  /** Characters of markdown returned without a side model (default 100,000). */
  readonly maxMarkdownChars?: number;
  /** Per-request timeout (default 30 s). */
  readonly timeoutMs?: number;
}

/** Which ripgrep Grep and Glob use: a path, or `null` to force the JS engine. */
export interface SearchOptions {
  /** `undefined`: @vscode/ripgrep's binary, else `rg` on the PATH, else the JS engine. */
  readonly rgPath?: string | null;
}

/**
 * The per-call capability bundle the engine builds. A tool reaches the world only through it.
 */
export interface ToolCtx {
  readonly sessionId: SessionId;
  readonly agentId: AgentId;
  readonly callId: ToolCallId;
  /** The project root (real absolute path). */
  readonly root: string;
  /** Further folders the session may work in (real absolute paths). */
  readonly additionalDirectories: readonly string[];
  /** The agent's persistent shell: its `cwd` is where relative paths resolve. */
  readonly shellSession: ShellSession;
  /** The host shell (sandbox and environment policy already applied). */
  readonly shell: Shell;
  /** Extra variables on top of the shell's environment policy, for Bash. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Aborted when the call is cancelled. */
  readonly signal: AbortSignal;
  /** The agent's read-before-edit tracker. */
  readonly files: FileTracker;
  /** Shared by every agent of the session: serialises calls on one path. */
  readonly locks: PathLocks;
  readonly web: WebOptions;
  readonly search: SearchOptions;
  /** Live progress for the host (`toolProgress`); never throws. */
  readonly onProgress: (text: string) => void;
  readonly artifacts: ArtifactSink;
  readonly limits: ToolLimits;
  /**
   * True when the session's `Read` deny rules cover reading this real absolute path (a `Read`
   * rule matches every read, whatever the tool). Grep and Glob leave such files out of their
   * results and refuse a search rooted at one. Absent: no read is denied. Never throws.
   */
  readonly readDenied?: (path: string) => boolean;
  /**
   * True when a rule lets this real absolute path, a regular file with more than one hard
   * link, be read under its own name (what the gate answers for a Read of it marked
   * `hardLinked`: an allow rule matching it, no deny or ask rule). Grep leaves out the
   * hard-linked files this does not allow, since it cannot ask in the middle of a search;
   * absent, it leaves out every hard-linked file. Never throws.
   */
  readonly hardLinkReadAllowed?: (path: string) => boolean;
  /** Whether the model reads images (Read returns image blocks only then). */
  readonly vision: boolean;
  readonly ports: ToolPorts;
}
