import { readHookResult, type SingleHookResult } from "./parse-output.js";
import type { HookCallback, HookDefinition, HookEventName } from "./types.js";

/**
 * Runs a hook callback with the input a command hook would read, bounded by the hook's
 * timeout and the caller's signal; its answer is read as a command's JSON stdout is. A throw
 * is a failed hook (a warning, like a command's exit 1); a timeout is a timeout.
 */
export async function runCallback(
  event: HookEventName,
  hook: HookDefinition,
  callback: HookCallback,
  input: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<SingleHookResult> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal?.addEventListener("abort", stop, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      // Settled before the abort, so that a callback answering its abort does not win the race.
      resolve("timeout");
      controller.abort();
    }, hook.timeoutSecs * 1000);
  });
  const exit = { exitCode: 0 as number | null, stdout: "", stderr: "", timedOut: false };
  try {
    const answer = await Promise.race([callback(input, controller.signal), timedOut]);
    if (answer === "timeout") exit.timedOut = true;
    else exit.stdout = JSON.stringify(answer ?? {});
  } catch (error) {
    exit.exitCode = 1;
    exit.stderr = error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
  }
  return readHookResult(event, hook.command, exit, hook.timeoutSecs);
}
