import type { EventScope, Journal } from "../journal/journal.js";
import type { HookRunner } from "./runner.js";
import type { HookEventName, HookOutcome, HookParent } from "./types.js";

/** What running a hook needs: the session's hooks, and where its warnings go. */
export interface HookDeps {
  readonly hooks: Pick<HookRunner, "has" | "run">;
  readonly journal: Pick<Journal, "notice">;
}

/**
 * The hooks an agent's events run: its own runner when its definition adds hooks (the
 * session's and its own), else the session's.
 */
export function agentHookDeps(
  core: HookDeps,
  agent: { readonly hooks?: HookDeps["hooks"] },
): HookDeps {
  return agent.hooks ? { hooks: agent.hooks, journal: core.journal } : core;
}

/** How one hook event is run. */
export interface RunHookOptions {
  /** The matcher's subject (the tool name for tool events); undefined runs every hook of the event. */
  readonly subject?: string;
  readonly signal?: AbortSignal;
  /** The scope of the warning notices (a turn, a subagent), and of the hooks' spans. */
  readonly scope?: EventScope;
}

/** Where the hooks' spans go: the scope's turn and agent, and the tool call the fields name. */
function parentOf(fields: Record<string, unknown>, scope: EventScope | undefined): HookParent {
  const agentId = scope?.agentId;
  const toolCallId = fields.tool_use_id;
  return {
    ...(scope?.turnId ? { turnId: scope.turnId } : {}),
    ...(agentId ? { agentId } : {}),
    ...(typeof toolCallId === "string" ? { toolCallId } : {}),
  };
}

/**
 * Runs the hooks of `event` with `fields` (Claude Code's names) and reports each warning as a
 * `hook.warning` notice, in order, before resolving. Resolves undefined, without spawning
 * anything, when no hook is configured for the event; otherwise with the combined outcome,
 * which the caller reads for its event's meaning (block, stop, context, input rewrite).
 * Never rejects: hook failures are warnings, and notices never reject.
 */
export async function runHook(
  deps: HookDeps,
  event: HookEventName,
  fields: Record<string, unknown>,
  options: RunHookOptions = {},
): Promise<HookOutcome | undefined> {
  if (!deps.hooks.has(event)) return undefined;
  const outcome = await deps.hooks.run(event, fields, {
    ...(options.subject !== undefined ? { subject: options.subject } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    parent: parentOf(fields, options.scope),
  });
  for (const warning of outcome.warnings)
    await deps.journal.notice("warning", "hook.warning", warning, options.scope);
  return outcome;
}
