import type { Paths } from "@z-engine/config";
import type { EventEnvelope } from "@z-engine/protocol";

/**
 * The engine options every in-process harness shares: its own folders and environment,
 * headless (no titles), no checkpoints, no repo map, no catalog fetch, events to `onEvent`.
 */
export function harnessEngineOptions(
  paths: Paths,
  env: Record<string, string>,
  homeDir: string,
  onEvent: (envelope: EventEnvelope) => void,
) {
  return {
    paths,
    env,
    homeDir,
    headless: true,
    checkpoints: false,
    repoMap: false,
    catalogSource: "off",
    onEvent,
  } as const;
}
