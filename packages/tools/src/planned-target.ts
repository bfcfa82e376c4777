import type { ToolCtx } from "./ctx.js";
import type { Action } from "./external.js";
import { type FileTarget, fileTarget, targetPaths } from "./file-target.js";

/**
 * What a file tool's `action()` resolved, per call, so that its `call()` reads or writes only
 * where the gate looked: a path that leads elsewhere by then (a symlink or hard link made by
 * an earlier call of the batch, or by another process while the user was deciding) is refused.
 * Entries are taken by the call; the oldest are dropped past {@link MAX_PLANS} (calls the gate
 * denied never run).
 */
const plans = new Map<string, string>();
const MAX_PLANS = 512;

/** One call's path; the shell's folder is left out on purpose: a `cd` since then is a change too. */
function keyOf(ctx: ToolCtx, input: string, kind: "read" | "write"): string {
  return [ctx.sessionId, ctx.agentId, ctx.callId, kind, input].join("\0");
}

/** What the gate sees of a target, as compared between action and call (a read of a hard-linked file says so). */
function seen(target: FileTarget, kind: "read" | "write"): string[] {
  const paths = targetPaths(target, kind);
  return kind === "read" && target.hardLinked
    ? [...paths, "(a file with other hard links)"]
    : paths;
}

async function plan(input: string, ctx: ToolCtx, kind: "read" | "write"): Promise<FileTarget> {
  const target = await fileTarget(input, ctx.shellSession.cwd);
  const key = keyOf(ctx, input, kind);
  plans.delete(key);
  plans.set(key, JSON.stringify(seen(target, kind)));
  if (plans.size > MAX_PLANS) plans.delete(plans.keys().next().value as string);
  return target;
}

/** Resolves a file tool's path for its action and remembers what the gate will see. Never rejects. */
export async function planTarget(
  input: string,
  ctx: ToolCtx,
  kind: "read" | "write",
): Promise<string[]> {
  return targetPaths(await plan(input, ctx, kind), kind);
}

/**
 * The read action of a file tool (Read, Grep) on one path, remembered like
 * {@link planTarget}: a regular file with more than one hard link is marked `hardLinked`, so
 * the gate asks unless a rule matches it under its own name. Never rejects.
 */
export async function planRead(input: string, ctx: ToolCtx): Promise<Action> {
  const target = await plan(input, ctx, "read");
  const paths = targetPaths(target, "read");
  return target.hardLinked ? { kind: "read", paths, hardLinked: true } : { kind: "read", paths };
}

/**
 * Resolves a file tool's path for its call: the target, or an error for the model when the
 * path now leads somewhere other than what the call's action showed the gate. A call whose
 * action was never taken (a host running tools without a gate) resolves freshly. Never rejects.
 */
export async function callTarget(
  input: string,
  ctx: ToolCtx,
  kind: "read" | "write",
): Promise<{ ok: true; target: FileTarget } | { ok: false; error: string }> {
  const target = await fileTarget(input, ctx.shellSession.cwd);
  const key = keyOf(ctx, input, kind);
  const planned = plans.get(key);
  plans.delete(key);
  if (planned === undefined) return { ok: true, target };
  const now = seen(target, kind);
  if (JSON.stringify(now) === planned) return { ok: true, target };
  const then = (JSON.parse(planned) as string[]).join(", ");
  return {
    ok: false,
    error: `${input} no longer leads where it did when this call was checked (then: ${then}; now: ${now.join(", ")}). Nothing was done; call again to have the new target checked.`,
  };
}
