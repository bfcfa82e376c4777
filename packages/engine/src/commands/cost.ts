import { addUsage, type SpendSource, type Usage } from "@z-engine/protocol";
import { type LogRecord, readLog } from "@z-engine/store";
import { formatCost, formatTokens } from "../format/describe.js";
import type { CommandHost } from "./host.js";

const n = (value: number) => value.toLocaleString("en-US");

/** The fast model's spend by source in `records` (usage records that name a source). */
export function fastSpendOf(records: readonly LogRecord[]): Map<SpendSource, Usage> {
  const out = new Map<SpendSource, Usage>();
  for (const r of records) {
    if (r.kind !== "usage" || !r.source) continue;
    const before = out.get(r.source);
    out.set(r.source, before ? addUsage(before, r.usage) : r.usage);
  }
  return out;
}

/**
 * The fast model's spend by source over the whole session: its log's usage records when the
 * store keeps a file, else (or when the file cannot be read) what this run of it spent.
 */
async function fastSpend(host: CommandHost): Promise<ReadonlyMap<SpendSource, Usage>> {
  const path = host.log.transcriptPath;
  if (!path) return host.state.fastSpend;
  try {
    return fastSpendOf((await readLog(path)).records);
  } catch {
    return host.state.fastSpend;
  }
}

/**
 * `/cost`: the session's total (every agent's rounds and every fast-model call), then the
 * fast model's share by source (compaction, title, webfetch, side, decisions) when it spent.
 */
export async function cost(host: CommandHost): Promise<string> {
  const u = host.totalUsage;
  const lines = [
    `**Cost:** ${formatCost(u.costUsd)}`,
    "",
    `- Input: ${n(u.input)} tokens`,
    `- Output: ${n(u.output)} tokens`,
    `- Cache read: ${n(u.cacheRead)} tokens`,
    `- Cache write: ${n(u.cacheWrite)} tokens`,
  ];
  const fast = [...(await fastSpend(host))].sort(([a], [b]) => a.localeCompare(b));
  if (fast.length > 0) {
    lines.push("", `**Fast model** (${host.config.fastModel}, included above):`, "");
    for (const [source, usage] of fast)
      lines.push(`- ${source}: ${formatCost(usage.costUsd)} (${formatTokens(usage)})`);
  }
  return lines.join("\n");
}
