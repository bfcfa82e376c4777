import type { AgentId, ToolCallId } from "@z-engine/protocol";
import { DEFAULT_TOOL_LIMITS, type ToolCtx } from "@z-engine/tools";
import { modelVision, type SessionCore } from "../session/core.js";

/** The main agent's id in events and tool contexts. */
export const MAIN_AGENT = "main" as AgentId;

/** Builds the per-call capability bundle of a tool call. Never throws. */
export function toolCtx(
  core: SessionCore,
  callId: ToolCallId,
  signal: AbortSignal,
  onProgress: (text: string) => void = () => {},
): ToolCtx {
  return {
    sessionId: core.id,
    agentId: MAIN_AGENT,
    callId,
    root: core.projectRoot,
    additionalDirectories: core.additionalDirectories,
    shellSession: core.shellSession,
    shell: core.shell,
    signal,
    files: core.files,
    locks: core.locks,
    web: core.web,
    search: core.search,
    onProgress,
    artifacts: core.log.artifacts,
    limits: DEFAULT_TOOL_LIMITS,
    vision: modelVision(core),
    ports: core.ports,
  };
}
