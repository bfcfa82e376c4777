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
      return is("turnStarted");
    case "stream":
      return is("textDelta");
    case "tool":
      return is("toolStarted");
    case "checkpoint":
      // The snapshot starts with the turn's first request and is recorded before its first write.
      return is("turnStarted");
    case "compaction":
      return is("compactionStarted");
    case "subagent":
      return (e) => e.event.type === "toolStarted" && e.agentId !== undefined;
    case "mcp":
      return (e) => e.event.type === "toolStarted" && JSON.stringify(e.event).includes(MCP_TOOL);
  }
}

/** The longest random delay after the trigger, by kind (ms): the window the kind spans. */
export const DELAY_MS: Readonly<Record<CrashKind, number>> = {
  append: 400,
  stream: 250,
  tool: 350,
  checkpoint: 300,
  compaction: 60,
  subagent: 300,
  mcp: 500,
};
