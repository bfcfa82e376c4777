import type { ApprovalDecision, EngineEvent } from "@z-engine/protocol";
import { badgeLabel, formatCheck, formatCost, formatSeconds, formatTokens } from "@z-engine/engine";

/** How the demo's user answered an approval card, in the walkthrough's words. */
export function answerLabel(decision: ApprovalDecision): string {
  switch (decision.type) {
    case "allowOnce":
      return "Allow once";
    case "allowSession":
      return `Always allow… › In this chat (adds the rule ${decision.rule})`;
    case "allowProject":
      return `Always allow… › In this project (adds the rule ${decision.rule})`;
    default:
      return "Deny";
  }
}

/**
 * Renders the demo's events as they happen, round by round. `relative` shortens paths
 * inside the fixture repository.
 */
export class DemoPrinter {
  private round = 0;

  constructor(
    private readonly write: (line: string) => void,
    private readonly relative: (text: string) => string,
  ) {}

  /** Prints one event (events it does not describe are skipped). */
  print(event: EngineEvent): void {
    for (const line of this.lines(event)) this.write(`${line}\n`);
  }

  private lines(event: EngineEvent): string[] {
    switch (event.type) {
      case "assistantStarted":
        this.round++;
        return ["", `Round ${this.round}`];
      case "assistantFinished": {
        const text = event.message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
        return text ? [`  Agent: ${text}`] : [];
      }
      case "checkpointCreated":
        return ["  Checkpoint: the project's files are snapshotted before the first tool runs"];
      case "approvalRequested":
        return this.approval(event);
      case "approvalResolved":
        return [`    You: ${answerLabel(event.decision)}`];
      case "toolStarted":
        return [`  ● ${this.relative(event.title)}`];
      case "toolFinished":
        return this.finished(event);
      case "checkRecorded":
        return [`    ${formatCheck(event.record)}`];
      default:
        return [];
    }
  }

  private approval(event: EngineEvent & { type: "approvalRequested" }): string[] {
    const lines = [
      `  ? Approval card: ${this.relative(event.title)} (${this.relative(event.reason)})`,
    ];
    if (event.preview?.kind === "diff") {
      for (const line of event.preview.diff.split("\n"))
        if (/^[-+][^-+]/.test(line)) lines.push(`      ${line}`);
    }
    return lines;
  }

  private finished(event: EngineEvent & { type: "toolFinished" }): string[] {
    if (event.status === "error")
      return [`    ${event.toolName}: the failure goes back to the model`];
    if (event.status !== "ok") return [`    ${event.toolName}: ${event.status}`];
    if (event.writtenPaths.length === 0) return [];
    return [`    wrote ${event.writtenPaths.map((p) => this.relative(p)).join(", ")}`];
  }
}

/** The closing lines: the badge, then outcome, duration, tokens and cost. */
export function demoFooter(summary: {
  outcome: string | null;
  badge: Parameters<typeof badgeLabel>[0];
  usage: Parameters<typeof formatTokens>[0];
  durationMs: number;
}): string {
  return [
    "",
    `Badge: ${badgeLabel(summary.badge)}: ${summary.badge.reason}`,
    `Turn ${summary.outcome ?? "blocked"} in ${formatSeconds(summary.durationMs)} · ${formatTokens(summary.usage)} · ${formatCost(summary.usage.costUsd)} (scripted usage)`,
    "",
  ].join("\n");
}
