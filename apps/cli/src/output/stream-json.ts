import type { EventEnvelope } from "@z-engine/protocol";
import { type Io, type OutputFormatter, type RunEnd, resultLine } from "./result.js";

/** stream-json: one EventEnvelope per line as it arrives, then the result line. */
export function streamJsonOutput(io: Io): OutputFormatter {
  return {
    onEvent: (envelope: EventEnvelope) => io.stdout(`${JSON.stringify(envelope)}\n`),
    finish: (end: RunEnd) => io.stdout(`${JSON.stringify(resultLine(end))}\n`),
  };
}
