// `options.hooks`: the host's hook callbacks, run by the engine's hook runner beside the
// settings' command hooks (same inputs, same reading of the answer).
import {
  HOOK_EVENTS,
  type HookDefinition,
  type HookEventName,
  type HookTable,
} from "@z-engine/engine";
import type { HookCallbackMatcher, HookEvent, HookInput } from "./hook-types.js";
import type { Options } from "./types.js";

const DEFAULT_TIMEOUT_SECS = 60;

function fires(event: string): event is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(event);
}

function definitions(
  event: HookEventName,
  matchers: readonly HookCallbackMatcher[],
): HookDefinition[] {
  return matchers.flatMap((m, i) =>
    m.hooks.map((hook, j) => ({
      matcher: m.matcher ?? "",
      command: `options.hooks.${event}[${i}].hooks[${j}]`,
      timeoutSecs: m.timeout ?? DEFAULT_TIMEOUT_SECS,
      callback: async (input: Readonly<Record<string, unknown>>, signal: AbortSignal) => {
        const id = typeof input.tool_use_id === "string" ? input.tool_use_id : undefined;
        const answer = await hook(input as unknown as HookInput, id, { signal });
        // `{ async: true }`: the hook does not hold the call up, which is continuing.
        return "async" in answer ? {} : (answer as Record<string, unknown>);
      },
    })),
  );
}

/**
 * The engine's callback table for `options.hooks`. An event zeng never fires gets one
 * warning through `warn` (its callbacks never run).
 */
export function hookCallbacks(
  hooks: Options["hooks"],
  warn: (message: string) => void,
): HookTable | undefined {
  if (!hooks) return undefined;
  const table: Partial<Record<HookEventName, HookDefinition[]>> = {};
  for (const [event, matchers] of Object.entries(hooks) as Array<
    [HookEvent, HookCallbackMatcher[]]
  >) {
    if (!matchers || matchers.length === 0) continue;
    if (fires(event)) table[event] = definitions(event, matchers);
    else warn(`options.hooks.${event}: zeng has no ${event} event; these callbacks never run`);
  }
  return table;
}
