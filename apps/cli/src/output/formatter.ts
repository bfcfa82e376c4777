import { formatEvent } from "@z-engine/engine";
import type { OutputFormat } from "../args.js";
import { jsonOutput } from "./json.js";
import type { Io, OutputFormatter } from "./result.js";
import { streamJsonOutput } from "./stream-json.js";
import { textOutput } from "./text.js";

function formatterFor(format: OutputFormat, io: Io): OutputFormatter {
  if (format === "stream-json") return streamJsonOutput(io);
  if (format === "text") return textOutput(io);
  const json = jsonOutput(io);
  return {
    onEvent: (envelope) => {
      json.onEvent(envelope);
      const e = envelope.event;
      if (e.type === "notice" || e.type === "trustRequired" || e.type === "approvalResolved") {
        const line = formatEvent(e);
        if (line !== undefined) io.stderr(`${line}\n`);
      }
    },
    finish: (end) => json.finish(end),
  };
}

/**
 * The formatter for an `--output-format`; json also reports notices and denials on stderr.
 * `finish` writes once, and events that arrive after it (a notice while the engine shuts
 * down) are dropped, so the result stays the last line.
 */
export function outputFor(format: OutputFormat, io: Io): OutputFormatter {
  const inner = formatterFor(format, io);
  let finished = false;
  return {
    onEvent: (envelope) => {
      if (!finished) inner.onEvent(envelope);
    },
    finish: (end) => {
      if (finished) return;
      finished = true;
      inner.finish(end);
    },
  };
}
