import type { ChildEnvironment, ChildFolder } from "@z-engine/host";
import { readHookResult, type SingleHookResult } from "./parse-output.js";
import { runCallback } from "./run-callback.js";
import { runHookProcess } from "./spawn.js";
import {
  emptyHookOutcome,
  type HookDefinition,
  type HookEventName,
  type HookOutcome,
  type HookParent,
  type HookRunOutcome,
  type HookSpans,
  type HookTable,
} from "./types.js";

/** What every hook input carries (Claude Code's field names). */
export interface HookSessionInfo {
  readonly sessionId: string;
  /** The session's log.jsonl. */
  readonly transcriptPath: string;
  /** The project: the input's `cwd`, and `$CLAUDE_PROJECT_DIR` / `$ZENGINE_PROJECT_DIR`. */
  readonly cwd: string;
  /**
   * Where hook processes run: the project once it is trusted; before, the engine's empty
   * neutral folder, so a hook's `npx prettier` or `python -m tool` never finds a program or
   * module the untrusted project planted.
   */
  readonly folder: ChildFolder;
  /** The scrubbed environment hook processes start from. */
  readonly env: ChildEnvironment;
  /** Where each hook run's span goes (the session's telemetry); none: no spans. */
  readonly spans?: HookSpans;
}

/** Runs the hooks a session's settings configure. */
export class HookRunner {
  constructor(
    private readonly table: HookTable,
    private readonly session: HookSessionInfo,
  ) {}

  /**
   * This runner with `extra` hooks added after the table's (an agent definition's own, for
   * the time it runs); the same session facts. `this` itself is unchanged.
   */
  with(extra: HookTable): HookRunner {
    const table: Record<string, readonly HookDefinition[]> = { ...this.table };
    for (const [event, hooks] of Object.entries(extra))
      table[event] = [...(table[event] ?? []), ...(hooks ?? [])];
    return new HookRunner(table as HookTable, this.session);
  }

  /** True when at least one hook is configured for `event`. */
  has(event: HookEventName): boolean {
    return (this.table[event]?.length ?? 0) > 0;
  }

  /**
   * Runs every hook of `event` whose matcher matches `subject` (the tool name for tool
   * events; when `subject` is undefined all run), in parallel, with the JSON input on stdin,
   * and combines what they said. Never rejects: failures become warnings. Each hook run gets
   * a span under `options.parent` when the session records spans.
   */
  async run(
    event: HookEventName,
    fields: Record<string, unknown>,
    options: { subject?: string; signal?: AbortSignal; parent?: HookParent } = {},
  ): Promise<HookOutcome> {
    const warnings: string[] = [];
    const hooks = (this.table[event] ?? []).filter((hook) =>
      matches(hook.matcher, options.subject, warnings),
    );
    if (hooks.length === 0)
      return warnings.length ? { ...emptyHookOutcome, warnings } : emptyHookOutcome;
    const input = {
      session_id: this.session.sessionId,
      transcript_path: this.session.transcriptPath,
      cwd: this.session.cwd,
      hook_event_name: event,
      ...fields,
    };
    const stdin = JSON.stringify(input);
    const results = await Promise.all(
      hooks.map((hook) =>
        this.traced(event, hook, options.parent ?? {}, () =>
          hook.callback
            ? runCallback(event, hook, hook.callback, input, options.signal)
            : this.runOne(event, hook, stdin, options.signal),
        ),
      ),
    );
    return combine(results, warnings);
  }

  /** Runs one hook inside its span (when spans record). */
  private async traced(
    event: HookEventName,
    hook: HookDefinition,
    parent: HookParent,
    run: () => Promise<SingleHookResult>,
  ): Promise<SingleHookResult> {
    const span = this.session.spans?.start({
      sessionId: this.session.sessionId,
      event,
      matcher: hook.matcher,
      command: hook.command,
      kind: hook.callback ? "callback" : "command",
      parent,
    });
    const result = await run();
    span?.end({
      outcome: runOutcome(result),
      blocked: result.blocked,
      ...(result.permissionDecision ? { permissionDecision: result.permissionDecision } : {}),
      ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    });
    return result;
  }

  private async runOne(
    event: HookEventName,
    hook: HookDefinition,
    stdin: string,
    signal: AbortSignal | undefined,
  ): Promise<SingleHookResult> {
    const exit = await runHookProcess({
      command: hook.command,
      stdin,
      folder: this.session.folder,
      env: this.session.env,
      extraEnv: { CLAUDE_PROJECT_DIR: this.session.cwd, ZENGINE_PROJECT_DIR: this.session.cwd },
      timeoutMs: hook.timeoutSecs * 1000,
      ...(signal ? { signal } : {}),
    });
    return readHookResult(event, hook.command, exit, hook.timeoutSecs);
  }
}

function runOutcome(result: SingleHookResult): HookRunOutcome {
  if (result.blocked) return "blocked";
  if (result.stop) return "stopped";
  if (result.timedOut) return "timeout";
  return result.warning ? "failed" : "ok";
}

function matches(matcher: string, subject: string | undefined, warnings: string[]): boolean {
  if (subject === undefined || matcher === "" || matcher === "*") return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(subject);
  } catch {
    warnings.push(`hook matcher "${matcher}" is not a valid regex; matched as plain text`);
    return matcher === subject;
  }
}

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

function combine(results: readonly SingleHookResult[], warnings: string[]): HookOutcome {
  let permissionDecision: HookOutcome["permissionDecision"];
  let permissionReason = "";
  let updatedInput: Record<string, unknown> | undefined;
  const blockReasons: string[] = [];
  const stopReasons: string[] = [];
  const additionalContext: string[] = [];
  const systemMessages: string[] = [];
  for (const r of results) {
    if (r.blocked) blockReasons.push(r.blockReason);
    if (r.stop) stopReasons.push(r.stopReason);
    if (
      r.permissionDecision &&
      (!permissionDecision || RANK[r.permissionDecision] > RANK[permissionDecision])
    ) {
      permissionDecision = r.permissionDecision;
      permissionReason = r.permissionReason;
    }
    if (r.updatedInput) updatedInput = r.updatedInput;
    additionalContext.push(...r.additionalContext);
    if (r.systemMessage) systemMessages.push(r.systemMessage);
    if (r.warning) warnings.push(r.warning);
  }
  return {
    ran: results.length,
    blocked: blockReasons.length > 0,
    blockReason: blockReasons.filter(Boolean).join("\n"),
    stop: stopReasons.length > 0,
    stopReason: stopReasons.filter(Boolean).join("\n"),
    ...(permissionDecision ? { permissionDecision } : {}),
    permissionReason,
    ...(updatedInput ? { updatedInput } : {}),
    additionalContext,
    systemMessages,
    warnings,
  };
}
