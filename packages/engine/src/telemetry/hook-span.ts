import { type Attributes, type Context, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import type { HookSpan, HookSpanStart } from "../hooks/types.js";

/**
 * Starts the span of one hook run in `parent`: `zeng.hook <Event>` with the event, matcher,
 * command (redacted) and kind; its end records the outcome, whether it blocked, the
 * permission decision and the exit code. A failed or timed-out hook is an error span; a
 * block is the hook's answer, not an error.
 */
export function startHookSpan(
  tracer: Tracer,
  parent: Context,
  run: HookSpanStart,
  redact: (text: string) => string,
): HookSpan {
  const attributes: Attributes = {
    "zeng.hook.event": run.event,
    "zeng.hook.matcher": run.matcher,
    "zeng.hook.command": redact(run.command),
    "zeng.hook.kind": run.kind,
  };
  if (run.parent.toolCallId) attributes["gen_ai.tool.call.id"] = run.parent.toolCallId;
  if (run.parent.turnId) attributes["zeng.turn.id"] = run.parent.turnId;
  if (run.parent.agentId) attributes["gen_ai.agent.id"] = run.parent.agentId;
  const span = tracer.startSpan(`zeng.hook ${run.event}`, { attributes }, parent);
  let ended = false;
  return {
    end: (result) => {
      if (ended) return;
      ended = true;
      span.setAttributes({
        "zeng.hook.outcome": result.outcome,
        "zeng.hook.blocked": result.blocked,
        ...(result.permissionDecision
          ? { "zeng.hook.permission_decision": result.permissionDecision }
          : {}),
        ...(typeof result.exitCode === "number" ? { "process.exit.code": result.exitCode } : {}),
      });
      if (result.outcome === "failed" || result.outcome === "timeout") {
        span.setAttribute(
          "error.type",
          result.outcome === "timeout" ? "hook_timeout" : "hook_failed",
        );
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
