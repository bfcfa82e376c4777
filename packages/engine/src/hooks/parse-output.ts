import type { HookEventName } from "./types.js";

/** What one hook process said, read from its exit code and output. */
export interface SingleHookResult {
  blocked: boolean;
  blockReason: string;
  stop: boolean;
  stopReason: string;
  permissionDecision?: "allow" | "deny" | "ask";
  permissionReason: string;
  updatedInput?: Record<string, unknown>;
  additionalContext: string[];
  systemMessage?: string;
  warning?: string;
  /** The hook ran past its timeout (and was killed). */
  timedOut?: boolean;
  /** The process's exit code (null: killed or never started; 0 for a callback that answered). */
  exitCode?: number | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Events whose plain stdout (exit 0) becomes context for the model. */
const STDOUT_IS_CONTEXT = new Set<HookEventName>(["UserPromptSubmit", "SessionStart"]);

function fromJson(json: Record<string, unknown>, result: SingleHookResult): void {
  if (json.continue === false) {
    result.stop = true;
    result.stopReason = str(json.stopReason);
  }
  if (json.decision === "block") {
    result.blocked = true;
    result.blockReason = str(json.reason);
  } else if (json.decision === "approve") {
    result.permissionDecision = "allow";
    result.permissionReason = str(json.reason);
  }
  if (typeof json.systemMessage === "string") result.systemMessage = json.systemMessage;
  const specific = json.hookSpecificOutput;
  if (!isRecord(specific)) return;
  const decision = specific.permissionDecision;
  if (decision === "allow" || decision === "deny" || decision === "ask") {
    result.permissionDecision = decision;
    result.permissionReason = str(specific.permissionDecisionReason);
  }
  if (isRecord(specific.updatedInput)) result.updatedInput = specific.updatedInput;
  if (typeof specific.additionalContext === "string" && specific.additionalContext !== "") {
    result.additionalContext.push(specific.additionalContext);
  }
}

/**
 * Reads one hook's result with Claude Code's protocol: exit 0 continues (JSON stdout is read
 * for decisions; plain stdout is context for UserPromptSubmit and SessionStart), exit 2
 * blocks with stderr as the reason, any other exit warns.
 */
export function readHookResult(
  event: HookEventName,
  command: string,
  exit: {
    exitCode: number | null;
    stdout: string;
    stderr: string;
    timedOut: boolean;
    error?: string;
  },
  timeoutSecs: number,
): SingleHookResult {
  const result: SingleHookResult = {
    blocked: false,
    blockReason: "",
    stop: false,
    stopReason: "",
    permissionReason: "",
    additionalContext: [],
    exitCode: exit.exitCode,
  };
  if (exit.timedOut) result.timedOut = true;
  if (exit.error !== undefined) {
    result.warning = `hook "${command}" could not start: ${exit.error}`;
  } else if (exit.timedOut) {
    result.warning = `hook "${command}" timed out after ${timeoutSecs} s`;
  } else if (exit.exitCode === 2) {
    result.blocked = true;
    result.blockReason = exit.stderr.trim() || `blocked by hook "${command}"`;
  } else if (exit.exitCode !== 0) {
    const detail = exit.stderr.trim();
    result.warning = `hook "${command}" exited with ${exit.exitCode}${detail ? `: ${detail}` : ""}`;
  } else {
    readStdout(event, command, exit.stdout, result);
  }
  return result;
}

function readStdout(
  event: HookEventName,
  command: string,
  stdout: string,
  result: SingleHookResult,
) {
  const text = stdout.trim();
  if (text === "") return;
  if (text.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      result.warning = `hook "${command}" printed invalid JSON; its output was ignored`;
      return;
    }
    if (isRecord(json)) {
      fromJson(json, result);
      return;
    }
  }
  if (STDOUT_IS_CONTEXT.has(event)) result.additionalContext.push(text);
}
