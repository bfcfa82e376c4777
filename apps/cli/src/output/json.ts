import type { EventEnvelope } from "@z-engine/protocol";
import { FinalText } from "./final-text.js";
import { type Io, type OutputFormatter, type RunEnd, resultLine } from "./result.js";

/** json: nothing while the turn runs, then one object: the result plus the final assistant text. */
export function jsonOutput(io: Io): OutputFormatter {
  const final = new FinalText();
  return {
    onEvent: (envelope: EventEnvelope) => final.push(envelope),
    finish: (end: RunEnd) =>
      io.stdout(`${JSON.stringify({ ...resultLine(end), text: final.value })}\n`),
  };
}
