// A stored session of many turns for the TUI's scale bench: one real turn written by `zeng -p`
// (a Bash call, its result and an answer), then its log records copied turn after turn with
// fresh ids, so every record is one the engine itself writes.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type FakeProvider, reply, when } from "@z-engine/testkit";
import { MAIN, run } from "./world.js";

/** The answer text of copy `i` (the copies differ, so the screen tells which one shows). */
export const answerOf = (i: number) =>
  `Answer ${i}: the change in \`src/module${i}.ts\` keeps the API and adds a test. ${"It reads well. ".repeat(1 + (i % 5))}`;

/** An engine id (`prefix_` then 24 characters of time and randomness). */
const ID = /\b[a-z]+_[0-9a-z]{20,}\b/g;
/** Title requests offer no tools; the script is for the main agent's. */
const isMain = (r: { body: unknown }) => Array.isArray((r.body as { tools?: unknown }).tools);

/** The records of one turn with every id renamed for copy `i` and the answer's marker replaced. */
function copyOf(lines: readonly string[], i: number, ts: number): string[] {
  const renamed = new Map<string, string>();
  return lines.map((line) => {
    const record = JSON.parse(line) as { ts: number };
    record.ts = ts + i;
    return JSON.stringify(record)
      .replace(ID, (id) => {
        const next = renamed.get(id) ?? `${id}x${i.toString(36)}`;
        renamed.set(id, next);
        return next;
      })
      .replaceAll("ANSWER-MARK", answerOf(i).replaceAll("`", "\\u0060"));
  });
}

/**
 * Writes a session of `turns` turns (each: prompt, a Bash call and its result, an answer:
 * four messages) in `cwd` under `env`'s data folder; resolves with its id.
 */
export async function longSession(
  provider: FakeProvider,
  env: Record<string, string>,
  cwd: string,
  turns: number,
): Promise<string> {
  provider.push(
    when(isMain, reply.toolCall("Bash", { command: "echo checked" })),
    when(isMain, reply.text("ANSWER-MARK")),
  );
  const done = await run([MAIN, "-p", "look around", "--permission-mode", "bypass"], env, cwd);
  if (done.code !== 0) throw new Error(`zeng -p failed: ${done.stderr}`);
  const sessions = join(env.ZENGINE_HOME as string, "sessions");
  const [id] = await readdir(sessions);
  if (!id) throw new Error("zeng -p stored no session");
  const log = join(sessions, id, "log.jsonl");
  const lines = (await readFile(log, "utf8")).trim().split("\n");
  const start = lines.findIndex((l) => l.includes('"kind":"turnStarted"'));
  const turn = lines.slice(start);
  const ts = Date.now();
  const copies: string[] = [];
  for (let i = 0; i < turns; i++) copies.push(...copyOf(turn, i, ts));
  await writeFile(log, `${[...lines.slice(0, start), ...copies].join("\n")}\n`);
  return id;
}
