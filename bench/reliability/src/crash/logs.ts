import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { LogRecord, parseLog, readLog } from "@z-engine/store";
import type pg from "pg";

type Fields = Record<string, unknown>;

/** Every log of one session (its own and its subagents'), checked line by line. */
export interface SessionLogs {
  /** Every intact record of every log. */
  readonly records: Fields[];
  /** What does not verify: a damaged line, an unknown kind, a record the full schema refuses. */
  readonly problems: string[];
  /** Logs that end in a torn (half-written) last line: allowed, once, at the end. */
  readonly torn: number;
}

function check(name: string, records: readonly unknown[], problems: string[]): void {
  for (const [i, record] of records.entries()) {
    const parsed = LogRecord.safeParse(record);
    if (!parsed.success)
      problems.push(
        `${name}: record ${i + 1} fails the schema: ${parsed.error.message.slice(0, 200)}`,
      );
  }
}

/**
 * Reads a file-store session's `log.jsonl` and `agents/*.jsonl` without changing them:
 * every line must parse and be a known, schema-valid record, except a torn last line.
 */
export async function readFileSessionLogs(
  dataDir: string,
  sessionId: string,
): Promise<SessionLogs> {
  const dir = join(dataDir, "sessions", sessionId);
  const agents = await readdir(join(dir, "agents")).catch(() => [] as string[]);
  const files = [
    "log.jsonl",
    ...agents.filter((f) => f.endsWith(".jsonl")).map((f) => `agents/${f}`),
  ];
  const records: Fields[] = [];
  const problems: string[] = [];
  let torn = 0;
  for (const file of files) {
    const log = await readLog(join(dir, file));
    for (const d of log.damage) problems.push(`${file}:${d.line}: ${d.reason} (${d.excerpt})`);
    for (const u of log.unknown) problems.push(`${file}:${u.line}: unknown kind ${u.kind}`);
    if (log.tornTail) torn++;
    check(file, log.records, problems);
    records.push(...(log.records as unknown as Fields[]));
  }
  return { records, problems, torn };
}

/** The same over a Postgres store's rows (one log per agent id, '' the session's own). */
export async function readPostgresSessionLogs(
  pool: pg.Pool,
  schema: string,
  sessionId: string,
): Promise<SessionLogs> {
  const result = await pool.query<{ agent_id: string; body: string }>(
    `SELECT agent_id, body FROM "${schema}".zeng_records WHERE session_id = $1 ORDER BY agent_id, seq`,
    [sessionId],
  );
  const byLog = new Map<string, string[]>();
  for (const row of result.rows) {
    const lines = byLog.get(row.agent_id) ?? [];
    lines.push(row.body);
    byLog.set(row.agent_id, lines);
  }
  const records: Fields[] = [];
  const problems: string[] = [];
  for (const [agent, lines] of byLog) {
    const name = agent === "" ? "log" : `agent ${agent}`;
    const log = parseLog(`${lines.join("\n")}\n`);
    for (const d of log.damage) problems.push(`${name}:${d.line}: ${d.reason} (${d.excerpt})`);
    for (const u of log.unknown) problems.push(`${name}:${u.line}: unknown kind ${u.kind}`);
    check(name, log.records, problems);
    records.push(...(log.records as unknown as Fields[]));
  }
  return { records, problems, torn: 0 };
}
