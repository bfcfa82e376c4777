import type { CompactionLedger } from "@z-engine/protocol";
import { type LogRecord, readLog } from "@z-engine/store";

/** What a compaction summarised away, and what it left. */
export interface CompactionSummary {
  readonly at: number;
  readonly trigger: "auto" | "manual" | "overflow";
  readonly droppedMessages: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The summary the model sees instead (its first 4,000 characters). */
  readonly summary: string;
  /** What it dropped and kept; absent for a compaction logged before ledgers existed. */
  readonly ledger?: CompactionLedger;
}

/** The compactions of a session's log, oldest first (none when the store keeps no file). */
export async function compactionsOf(
  logPath: string,
): Promise<{ compactions: CompactionSummary[]; records: readonly LogRecord[] }> {
  const records = logPath ? (await readLog(logPath)).records : [];
  const compactions: CompactionSummary[] = [];
  for (const r of records) {
    if (r.kind !== "compaction") continue;
    const c = r.compaction;
    const summary = c.summary.content
      .flatMap((b) => (b.type === "text" ? [b.text] : []))
      .join("\n");
    compactions.push({
      at: r.ts,
      trigger: c.trigger,
      droppedMessages: c.droppedMessageIds.length,
      tokensBefore: c.tokensBefore,
      tokensAfter: c.tokensAfter,
      summary: summary.slice(0, 4000),
      ...(c.ledger ? { ledger: c.ledger } : {}),
    });
  }
  return { compactions, records };
}

/** One line per compaction for `/context`: when, why, what it dropped and kept. */
export function compactionLines(compactions: readonly CompactionSummary[]): string[] {
  return compactions.map((c, i) => {
    const l = c.ledger;
    const ranges = l?.ranges.map((r) => `${r.first}…${r.last}`).join(", ");
    const kept = l
      ? [
          l.requestKept ? "the latest request quoted" : "",
          l.todosKept > 0 ? `${l.todosKept} open todos quoted` : "",
          l.artifacts.length > 0
            ? `${l.artifacts.length} stored outputs kept (${l.artifacts.slice(0, 5).join(", ")}${l.artifacts.length > 5 ? ", …" : ""})`
            : "",
        ].filter(Boolean)
      : [];
    return `${i + 1}. ${new Date(c.at).toISOString()} ${c.trigger}: ${c.droppedMessages} messages${ranges ? ` (${ranges})` : ""}, ${c.tokensBefore.toLocaleString("en-US")} → ${c.tokensAfter.toLocaleString("en-US")} tokens${kept.length > 0 ? `; ${kept.join("; ")}` : ""}`;
  });
}
