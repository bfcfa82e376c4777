import { strict as assert } from "node:assert";
import { part, reply } from "@z-engine/testkit";
import { FAULT_MODEL } from "./world.js";
import { assertWellFormed, type FaultRow, inWorld, main } from "./row.js";

const ok = () => main(reply.text("ok"));

/** A temporary failure, retried after `waits`, then the answer: the turn completes. */
function retried(
  name: string,
  faults: ReturnType<typeof reply.fault>[],
  waits: number[],
  reasons: string[],
  idleTimeoutMs?: number,
): FaultRow {
  return {
    name,
    run: (format) =>
      inWorld(
        format,
        { script: [...faults.map(main), ok()], ...(idleTimeoutMs ? { idleTimeoutMs } : {}) },
        async (w) => {
          const summary = await w.session.run("hello");
          assert.equal(summary.outcome, "completed", summary.reason);
          assert.deepEqual(w.waits, waits);
          const retrying = w.recorder.ofType("retrying");
          assert.deepEqual(
            retrying.map((e) => [e.attempt, e.delayMs, e.reason]),
            reasons.map((reason, i) => [i + 1, waits[i], reason]),
          );
          assert.equal(w.mainRequests().length, faults.length + 1);
          assertWellFormed(w);
        },
      ),
  };
}

/** The rows of the matrix that the client's retries and fallbacks answer. */
export const RETRY_ROWS: readonly FaultRow[] = [
  retried(
    "429 with retry-after: retried after the wait it asks for",
    [reply.fault({ status: 429, retryAfter: 2 })],
    [2000],
    ["rateLimit"],
  ),
  retried(
    "429 without retry-after: retried after 0.5 s",
    [reply.fault({ status: 429 })],
    [500],
    ["rateLimit"],
  ),
  retried("529 overloaded: retried", [reply.fault({ status: 529 })], [500], ["overloaded"]),
  retried(
    "500, 502 and 503: retried at 0.5 s, 1 s, 2 s",
    [reply.fault({ status: 500 }), reply.fault({ status: 502 }), reply.fault({ status: 503 })],
    [500, 1000, 2000],
    ["server", "server", "overloaded"],
  ),
  retried(
    "a connection dropped before the first byte: retried",
    [reply.fault({ drop: "beforeFirstByte" })],
    [500],
    ["network"],
  ),
  retried(
    "a slow provider sending only heartbeats: the request times out and is retried",
    [{ ...reply.text("never"), fault: { heartbeats: true, intervalMs: 20 } }],
    [500],
    ["timeout"],
    300,
  ),
  {
    name: "a failure through all 5 attempts: the turn fails with the provider's reason",
    run: (format) =>
      inWorld(
        format,
        {
          script: Array.from({ length: 5 }, () =>
            main(reply.fault({ status: 500, message: "upstream down" })),
          ),
        },
        async (w) => {
          const summary = await w.session.run("hello");
          assert.equal(summary.outcome, "failed");
          assert.match(summary.reason ?? "", /upstream down/);
          assert.deepEqual(w.waits, [500, 1000, 2000, 4000]);
          assert.equal(w.mainRequests().length, 5);
          const ended = (await w.log()).filter((r) => r.kind === "turnEnded");
          assert.deepEqual(
            ended.map((r) => r.outcome),
            ["failed"],
          );
        },
      ),
  },
  {
    name: "fallbacks before any text: the next model is tried once the retries are spent",
    run: (format) =>
      inWorld(
        format,
        {
          settings: { model: { fallbacks: ["claude-haiku-4-5"] } },
          script: [
            ...Array.from({ length: 5 }, () => main(reply.fault({ status: 529 }))),
            main(reply.text("from the fallback")),
          ],
        },
        async (w) => {
          const summary = await w.session.run("hello");
          assert.equal(summary.outcome, "completed", summary.reason);
          const models = w.mainRequests().map((r) => r.model);
          assert.deepEqual(models, [...Array(5).fill(FAULT_MODEL), "claude-haiku-4-5"]);
          const notice = w.recorder.ofType("notice").find((n) => n.code === "model.fallback");
          assert.ok(notice, "a model.fallback notice");
          assertWellFormed(w);
        },
      ),
  },
  {
    name: "a connection dropped after some text: final (no retry, no fallback), the next turn is well formed",
    run: (format) =>
      inWorld(
        format,
        {
          settings: { model: { fallbacks: ["claude-haiku-4-5"] } },
          script: [
            main({
              ...reply.text("partial answer"),
              wire: { textChunkChars: 8 },
              // Through the first text delta (Anthropic: message_start, ping, block start, delta).
              fault: { drop: "afterFirstByte", afterEvents: format === "anthropic" ? 4 : 2 },
            }),
            main(reply.of(part.text("second turn"))),
          ],
        },
        async (w) => {
          const first = await w.session.run("hello");
          assert.equal(first.outcome, "failed");
          assert.match(first.reason ?? "", /^network/);
          assert.equal(w.mainRequests().length, 1);
          const second = await w.session.run("again");
          assert.equal(second.outcome, "completed", second.reason);
          assert.equal(w.mainRequests()[1]?.model, FAULT_MODEL);
          assertWellFormed(w);
        },
      ),
  },
];
