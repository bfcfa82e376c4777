import type { EventEnvelope } from "@z-engine/protocol";
import { type CrashKind, MCP_TOOL } from "./model.js";

type Test = (envelope: EventEnvelope) => boolean;
const is =
  (type: string): Test =>
  (e) =>
    e.event.type === type;

/**
 * The event after which a kill of `kind` lands (plus a random delay): the moment the run is
 * doing what the kind names. The compaction kind is killed from the model's summary request
 * instead (the harness's `onSummary`), so its trigger is only a fallback.
 */
export function triggerOf(kind: CrashKind): Test {
  switch (kind) {
    case "append":
      // Any acknowledged event: the harness waits for a random number of them (no delay).
      return () => true;
    case "stream":
      return is("textDelta");
    case "tool":
      return is("toolStarted");
    case "checkpoint":
      // The snapshot starts with the turn's first request and is recorded before its first write.
      return is("assistantStarted");
    case "compaction":
      return is("compactionStarted");
    case "subagent":
      return (e) => e.event.type === "toolStarted" && e.agentId !== undefined;
    case "mcp":
      return (e) => e.event.type === "toolStarted" && JSON.stringify(e.event).includes(MCP_TOOL);
  }
}

/** How many trigger events a kind waits for at most (a random count from 1 on). */
export const COUNT: Readonly<Partial<Record<CrashKind, number>>> = { append: 14 };

/** The longest random delay after the trigger, by kind (ms): the window the kind spans. */
export const DELAY_MS: Readonly<Record<CrashKind, number>> = {
  append: 0,
  stream: 250,
  tool: 350,
  checkpoint: 60,
  compaction: 60,
  subagent: 300,
  mcp: 500,
};
