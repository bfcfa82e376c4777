import type { EventEnvelope } from "@z-engine/protocol";
import {
  badgeLabel,
  formatCost,
  formatEvent,
  formatSeconds,
  formatTokens,
  type SessionHandle,
  settingsReport,
} from "@z-engine/engine";
import type { Io, OutputFormatter, RunEnd } from "./result.js";

/** The footer: "completed · Verified (reason) · tokens · $cost · 1.2 s · session ses_...". */
export function footer(end: RunEnd): string {
  const badge = end.badge.status === "notApplicable" ? "no badge" : badgeLabel(end.badge);
  const parts = [
    end.outcome ?? "blocked",
    `${badge}${end.badge.reason ? ` (${end.badge.reason})` : ""}`,
    formatTokens(end.usage),
    formatCost(end.usage.costUsd),
    formatSeconds(end.durationMs),
    `session ${end.sessionId}`,
  ];
  const reason = end.reason && end.outcome !== "completed" ? `: ${end.reason}` : "";
  return `── ${parts.join(" · ")}${reason}`;
}

/** `[appearance] show_thinking` of a session's settings as they are now (default true). */
export function showsThinking(session: SessionHandle): boolean {
  const value = settingsReport(session).values.find((v) => v.key === "appearance.show_thinking");
  return value?.value !== false;
}

/** What the text format shows besides the answer. */
export interface TextOptions {
  /** `[appearance] show_thinking`, read at each thinking block (default: shown). */
  readonly showThinking?: () => boolean;
}

/**
 * text: the main agent's text deltas stream to stdout; its thinking (with `show_thinking`),
 * tool calls, checks, denials, retries and notices go to stderr; a one-line footer ends stderr.
 */
export function textOutput(io: Io, options: TextOptions = {}): OutputFormatter {
  let midLine = false;
  let thinking = false;
  const endLine = () => {
    if (midLine) io.stdout("\n");
    midLine = false;
  };
  const endThinking = () => {
    if (thinking) io.stderr("\n");
    thinking = false;
  };
  return {
    onEvent: (envelope: EventEnvelope) => {
      const e = envelope.event;
      if (envelope.agentId !== undefined) return;
      if (e.type === "thinkingDelta") {
        if (e.text === "" || options.showThinking?.() === false) return;
        if (!thinking) io.stderr("✻ thinking: ");
        thinking = true;
        io.stderr(e.text);
        return;
      }
      endThinking();
      if (e.type === "textDelta") {
        if (e.text === "") return;
        io.stdout(e.text);
        midLine = !e.text.endsWith("\n");
        return;
      }
      if (e.type === "assistantFinished") return endLine();
      if (e.type === "commandOutput") {
        endLine();
        io.stdout(e.markdown.endsWith("\n") ? e.markdown : `${e.markdown}\n`);
        return;
      }
      const line = formatEvent(e);
      if (line === undefined) return;
      endLine();
      io.stderr(`${line}\n`);
    },
    finish: (end: RunEnd) => {
      endThinking();
      endLine();
      io.stderr(`${footer(end)}\n`);
    },
  };
}
