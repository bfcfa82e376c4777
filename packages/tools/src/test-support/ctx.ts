import type { AgentId, ArtifactRef, ArtifactSink, SessionId, ToolCallId } from "@z-engine/protocol";
import { createShell, createShellSession, type Shell } from "@z-engine/host";
import {
  DEFAULT_TOOL_LIMITS,
  type SearchOptions,
  type ToolCtx,
  type ToolLimits,
  type WebOptions,
} from "../ctx.js";
import { createFileTracker, type FileTracker } from "../file-tracker.js";
import { createPathLocks, type PathLocks } from "../path-locks.js";
import type { ToolPorts } from "../ports.js";

/** An in-memory artifact sink for tests. */
export function memoryArtifacts(): ArtifactSink & { readonly stored: Map<string, Uint8Array> } {
  const stored = new Map<string, Uint8Array>();
  return {
    stored,
    async put(name, data, options) {
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
      const ref = `artifact:${stored.size}-${name}`;
      stored.set(ref, bytes);
      const result: ArtifactRef = {
        ref,
        name,
        bytes: bytes.length,
        mediaType: options?.mediaType ?? "text/plain",
        truncated: false,
      };
      return result;
    },
    async read(ref) {
      return stored.get(ref);
    },
  };
}

/** What a test may set on its ToolCtx. */
export interface TestCtxOptions {
  readonly root: string;
  readonly cwd?: string;
  readonly signal?: AbortSignal;
  readonly files?: FileTracker;
  readonly locks?: PathLocks;
  readonly ports?: ToolPorts;
  readonly vision?: boolean;
  readonly search?: SearchOptions;
  readonly web?: WebOptions;
  readonly limits?: Partial<ToolLimits>;
  readonly progress?: string[];
  readonly readDenied?: (path: string) => boolean;
  readonly hardLinkReadAllowed?: (path: string) => boolean;
  /** The shell (default: a real host shell with PATH and HOME). */
  readonly shell?: Shell;
}

/** A ToolCtx over a real host shell, for tests. */
export function testCtx(
  options: TestCtxOptions,
): ToolCtx & { readonly artifacts: ReturnType<typeof memoryArtifacts> } {
  const shell =
    options.shell ?? createShell({ baseEnv: { PATH: process.env.PATH, HOME: process.env.HOME } });
  return {
    sessionId: "ses_test" as SessionId,
    agentId: "agent_test" as AgentId,
    callId: "call_test" as ToolCallId,
    root: options.root,
    additionalDirectories: [],
    shellSession: createShellSession(shell, { cwd: options.cwd ?? options.root }),
    shell,
    signal: options.signal ?? new AbortController().signal,
    files: options.files ?? createFileTracker(),
    locks: options.locks ?? createPathLocks(),
    web: options.web ?? {},
    search: options.search ?? {},
    onProgress: (text) => options.progress?.push(text),
    artifacts: memoryArtifacts(),
    limits: { ...DEFAULT_TOOL_LIMITS, ...options.limits },
    ...(options.readDenied ? { readDenied: options.readDenied } : {}),
    ...(options.hardLinkReadAllowed ? { hardLinkReadAllowed: options.hardLinkReadAllowed } : {}),
    vision: options.vision ?? false,
    ports: options.ports ?? {},
  };
}

/** The text of an output's first block. */
export function textOf(output: {
  readonly content: readonly { type: string; text?: string }[];
}): string {
  return output.content
    .map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`))
    .join("\n");
}
