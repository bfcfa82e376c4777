import type { Message } from "@z-engine/protocol";
import { type LogRecord, ReplayFold } from "@z-engine/store";
import type { FakeProviderRequest } from "@z-engine/testkit";
import { offersTools } from "../wire/shape.js";
import { wireMessages } from "../wire/read.js";

/** The mark the crash model puts in each compaction summary it writes (`[summary s3]`). */
export const SUMMARY_MARK = /\[summary s\d+\]/g;

/** What a history holds, as text: its tool call ids and summary marks, sorted. */
function signature(ids: Iterable<string>, texts: Iterable<string>): string {
  const marks = [...texts].flatMap((t) => t.match(SUMMARY_MARK) ?? []);
  return `${[...new Set(ids)].sort().join(",")}|${[...new Set(marks)].sort().join(",")}`;
}

function messageSignature(messages: readonly Message[]): string {
  const ids: string[] = [];
  const texts: string[] = [];
  for (const m of messages)
    for (const block of m.content) {
      if (block.type === "toolUse") ids.push(block.id);
      if (block.type === "text") texts.push(block.text);
    }
  return signature(ids, texts);
}

/**
 * The main agent's requests (they offer tools; a summary request does not) whose history is
 * not the working set of any prefix of the log: a mix of an old and a new history, as a
 * compaction half applied would send (its summary beside messages it dropped, or some of
 * them gone without a summary). Each request must be one state the log passed through.
 */
export function mixedHistories(
  records: readonly Record<string, unknown>[],
  requests: readonly FakeProviderRequest[],
): string[] {
  const states = new Set<string>();
  const fold = new ReplayFold();
  states.add(messageSignature(fold.workingSet()));
  for (const record of records) {
    fold.apply(record as unknown as LogRecord);
    states.add(messageSignature(fold.workingSet()));
  }
  const problems: string[] = [];
  for (const [i, request] of requests.entries()) {
    if (!offersTools(request)) continue;
    const messages = wireMessages(request);
    const sent = signature(
      messages.flatMap((m) => m.calls.map((c) => c.id)),
      messages.flatMap((m) => m.texts),
    );
    if (!states.has(sent))
      problems.push(
        `request ${i + 1} sends a history no prefix of the log held (${sent.slice(0, 200)})`,
      );
  }
  return problems;
}

/** True when a request sends a summary the crash model wrote. */
export function carriesSummary(request: FakeProviderRequest): boolean {
  return wireMessages(request).some((m) =>
    m.texts.some((t) => new RegExp(SUMMARY_MARK.source).test(t)),
  );
}
