import { formatEvent } from "@z-engine/engine";
import type { OutputFormat } from "../args.js";
import { type ClaudeOutputOptions, claudeOutput } from "./claude.js";
import { jsonOutput } from "./json.js";
import type { Io, OutputFormatter } from "./result.js";
import { streamJsonOutput } from "./stream-json.js";
import { type TextOptions, textOutput } from "./text.js";

/** What the Claude-shaped formats need besides the format. */
export type ClaudeFacts = Omit<ClaudeOutputOptions, "stream">;

function formatterFor(
  format: OutputFormat,
  io: Io,
  claude: ClaudeFacts | undefined,
  text: TextOptions,
): OutputFormatter {
  if (format === "claude-json" || format === "claude-stream-json") {
    const facts = claude ?? {
      partial: false,
      facts: { cwd: process.cwd(), model: "", permissionMode: "default" },
    };
    return withNotices(claudeOutput(io, { ...facts, stream: format === "claude-stream-json" }), io);
  }
  if (format === "stream-json") return streamJsonOutput(io);
  if (format === "text") return textOutput(io, text);
  return withNotices(jsonOutput(io), io);
}

/** `inner`, with notices, trust prompts and denials also on stderr. */
function withNotices(json: OutputFormatter, io: Io): OutputFormatter {
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
 * The formatter for an `--output-format`; json also reports notices and denials on stderr;
 * `text` says what the text format shows besides the answer (thinking).
 * `finish` writes once, and events that arrive after it (a notice while the engine shuts
 * down) are dropped, so the result stays the last line.
 */
export function outputFor(
  format: OutputFormat,
  io: Io,
  claude?: ClaudeFacts,
  text: TextOptions = {},
): OutputFormatter {
  const inner = formatterFor(format, io, claude, text);
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
