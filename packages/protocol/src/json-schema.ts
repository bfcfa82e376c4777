import { z } from "zod";
import { EngineCommand } from "./commands.js";
import { EventEnvelope } from "./events.js";

/** JSON Schema (draft 2020-12) of every command a host may send. */
export function engineCommandJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(EngineCommand, { io: "input", unrepresentable: "any" });
}

/** JSON Schema (draft 2020-12) of an event envelope and every event it may carry. */
export function eventEnvelopeJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(EventEnvelope, { io: "output", unrepresentable: "any" });
}
