import { type DecideContext, decide, type PermissionRules } from "@z-engine/policy";
import type { AgentId, ToolCallId } from "@z-engine/protocol";
import { DEFAULT_TOOL_LIMITS, type ToolCtx } from "@z-engine/tools";
import type { AgentRun } from "../core/agent-context.js";
import { agentVision, type SessionCore } from "../core/session-core.js";

/** What a tool call's context takes of its session: the ids, folders, services and rules it hands on. */
export type ToolCtxCore = Pick<
  SessionCore,
  | "id"
  | "additionalDirectories"
  | "homeDir"
  | "sessionRules"
  | "config"
  | "catalog"
  | "shell"
  | "locks"
  | "web"
  | "search"
  | "log"
  | "ports"
>;

/** What a tool call's context takes of its agent's run. */
export type ToolCtxRun = Pick<
  AgentRun,
  "agent" | "agentId" | "root" | "shellSession" | "files" | "confinement"
>;

/** The main agent's id in events and tool contexts. */
export const MAIN_AGENT = "main" as AgentId;

/**
 * `ToolCtx.readDenied` for the session: true when a deny rule of the session or the settings
 * covers a read of the path (what the gate would answer for a Read of it). The rules are
 * gathered on the first question and kept for the call; no predicate when no deny rule can
 * match a read, so Grep and Glob filter nothing then.
 */
function readDeniedOf(
  core: Pick<ToolCtxCore, "sessionRules" | "config" | "additionalDirectories" | "homeDir">,
  run: Pick<ToolCtxRun, "root" | "agent">,
): ((path: string) => boolean) | undefined {
  const deny = [...core.sessionRules.deny, ...core.config.rules.deny];
  const readRule = deny.some(
    ({ rule }) => (rule.kind === "path" || rule.kind === "tool") && rule.tool === "Read",
  );
  if (!readRule) return undefined;
  const rules: PermissionRules = { allow: [], ask: [], deny };
  const context: DecideContext = {
    projectRoot: run.root,
    additionalDirectories: core.additionalDirectories,
    homeDir: core.homeDir,
    autoAllowReadOnlyBash: false,
  };
  return (path) =>
    decide(
      { toolName: "Read", actions: [{ kind: "read", paths: [path] }] },
      run.agent.mode(),
      rules,
      context,
    ).type === "deny";
}

/**
 * `ToolCtx.hardLinkReadAllowed` for the session: what the gate answers for a Read of the path
 * marked `hardLinked` (allowed only by a rule matching it under its own name), with the
 * session's and the settings' rules as they are when asked.
 */
function hardLinkReadOf(
  core: Pick<ToolCtxCore, "sessionRules" | "config" | "additionalDirectories" | "homeDir">,
  run: Pick<ToolCtxRun, "root" | "agent">,
): (path: string) => boolean {
  const context: DecideContext = {
    projectRoot: run.root,
    additionalDirectories: core.additionalDirectories,
    homeDir: core.homeDir,
    autoAllowReadOnlyBash: false,
  };
  let rules: PermissionRules | undefined;
  return (path) => {
    const { sessionRules: s, config } = core;
    const c = config.rules;
    rules ??= {
      allow: [...s.allow, ...c.allow],
      ask: [...s.ask, ...c.ask],
      deny: [...s.deny, ...c.deny],
    };
    const action = { kind: "read" as const, paths: [path], hardLinked: true };
    const call = { toolName: "Read", actions: [action] };
    return decide(call, run.agent.mode(), rules, context).type === "allow";
  };
}

/** Builds the per-call capability bundle of a tool call of an agent's run. Never throws. */
export function toolCtx(
  core: ToolCtxCore,
  run: ToolCtxRun,
  callId: ToolCallId,
  signal: AbortSignal,
  onProgress: (text: string) => void = () => {},
): ToolCtx {
  const readDenied = readDeniedOf(core, run);
  return {
    sessionId: core.id,
    agentId: run.agentId ?? MAIN_AGENT,
    callId,
    root: run.root,
    additionalDirectories: core.additionalDirectories,
    shellSession: run.shellSession,
    shell: run.confinement?.shell ?? core.shell,
    signal,
    files: run.files,
    locks: core.locks,
    web: core.web,
    search: core.search,
    onProgress,
    artifacts: core.log.artifacts,
    limits: DEFAULT_TOOL_LIMITS,
    ...(readDenied ? { readDenied } : {}),
    hardLinkReadAllowed: hardLinkReadOf(core, run),
    vision: agentVision(core, run.agent.model()),
    ports: run.confinement?.ports ?? core.ports,
  };
}
