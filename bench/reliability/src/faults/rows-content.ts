import { strict as assert } from "node:assert";
import { part, reply } from "@z-engine/testkit";
import { wireToolResults } from "../wire/shape.js";
import { assertWellFormed, type FaultRow, inWorld, main, recordsOf, summary } from "./row.js";
import type { FaultWorld } from "./world.js";

const done = () => main(reply.text("done"));

/** The result the second main request sends for `callId` (as JSON text). */
function resultFor(w: FaultWorld, request: number, callId: string): string {
  const sent = w.mainRequests()[request];
  assert.ok(sent, `main request ${request} was sent`);
  const result = wireToolResults(sent).get(callId);
  assert.ok(result, `call ${callId} is answered in main request ${request}`);
  return result;
}

/** A first turn that leaves history to compact: a Bash call, its result, an answer. */
function history(w: FaultWorld) {
  return [
    main(reply.toolCall("Bash", { command: w.sideEffect("history") })),
    main(reply.text(`first turn done ${"with some words ".repeat(40)}`)),
  ];
}

/** The rows of the matrix that the engine answers (the stream's content, context overflow). */
export const CONTENT_ROWS: readonly FaultRow[] = [
  {
    name: "a 400 context overflow: one compaction, one retry",
    run: (format) =>
      inWorld(format, {}, async (w) => {
        w.provider.push(...history(w));
        assert.equal((await w.session.run("start")).outcome, "completed");
        w.provider.push(
          main(reply.error("contextOverflow")),
          summary("SUMMARY-OF-EARLIER"),
          done(),
        );
        const turn = await w.session.run("go on");
        assert.equal(turn.outcome, "completed", turn.reason);
        const compactions = await recordsOf(w, "compaction");
        assert.equal(compactions.length, 1);
        assert.equal((compactions[0]?.compaction as { trigger?: string })?.trigger, "overflow");
        const retry = w.mainRequests().at(-1);
        assert.match(JSON.stringify(retry?.body), /SUMMARY-OF-EARLIER/);
        assert.equal(
          w.provider.requests.length - w.mainRequests().length,
          1,
          "one summary request",
        );
        assertWellFormed(w);
      }),
  },
  {
    name: "a context overflow again after the compaction: the turn fails, no loop",
    run: (format) =>
      inWorld(format, {}, async (w) => {
        w.provider.push(...history(w));
        assert.equal((await w.session.run("start")).outcome, "completed");
        w.provider.push(
          main(reply.error("contextOverflow")),
          summary("SUMMARY"),
          main(reply.error("contextOverflow")),
        );
        const turn = await w.session.run("go on");
        assert.equal(turn.outcome, "failed");
        assert.match(turn.reason ?? "", /^contextOverflow/);
        assert.equal((await recordsOf(w, "compaction")).length, 1);
        assert.equal(w.mainRequests().length, 4);
      }),
  },
  {
    name: "max_tokens in the middle of a tool call: the call is not run, the model is told",
    run: (format) =>
      inWorld(format, {}, async (w) => {
        const cut = `{"command": ${JSON.stringify(w.sideEffect("cut"))}, "description": "appe`;
        w.provider.push(
          main(reply.of(part.toolCall("Bash", {}, "toolu_cut", cut), part.stop("maxTokens"))),
          done(),
        );
        const turn = await w.session.run("write it");
        assert.equal(turn.outcome, "completed", turn.reason);
        assert.deepEqual(await w.effects(), []);
        assert.match(resultFor(w, 1, "toolu_cut"), /max_tokens|output token limit/i);
        assertWellFormed(w);
      }),
  },
  {
    name: "invalid JSON in a tool input: the call is not run, the model gets an error result",
    run: (format) =>
      inWorld(format, {}, async (w) => {
        w.provider.push(
          main(reply.of(part.toolCall("Bash", {}, "toolu_bad", '{"command": echo hi}'))),
          done(),
        );
        const turn = await w.session.run("run it");
        assert.equal(turn.outcome, "completed", turn.reason);
        assert.match(resultFor(w, 1, "toolu_bad"), /not valid JSON/);
        const finished = w.recorder.ofType("toolFinished");
        assert.deepEqual(
          finished.map((f) => f.status),
          ["error"],
        );
        assertWellFormed(w);
      }),
  },
  {
    name: "two tool calls with the same id: both run once, both answered, ids made distinct",
    run: (format) =>
      inWorld(format, {}, async (w) => {
        w.provider.push(
          main(
            reply.toolCalls([
              { name: "Bash", input: { command: w.sideEffect("one") }, id: "toolu_same" },
              { name: "Bash", input: { command: w.sideEffect("two") }, id: "toolu_same" },
            ]),
          ),
          done(),
        );
        const turn = await w.session.run("run both");
        assert.equal(turn.outcome, "completed", turn.reason);
        assert.deepEqual((await w.effects()).sort(), ["one", "two"]);
        const sent = w.mainRequests()[1];
        assert.ok(sent);
        assert.equal(wireToolResults(sent).size, 2);
        assertWellFormed(w);
      }),
  },
  {
    name: "an unknown content block type: skipped, the rest of the response used",
    run: (format) =>
      inWorld(format, {}, async (w) => {
        w.provider.push(
          main({
            ...reply.toolCall("Bash", { command: w.sideEffect("known") }),
            wire: { unknownBlocks: true },
          }),
          done(),
        );
        const turn = await w.session.run("go");
        assert.equal(turn.outcome, "completed", turn.reason);
        assert.deepEqual(await w.effects(), ["known"]);
        assertWellFormed(w);
      }),
  },
  {
    name: "a response with an empty content list: the turn ends, no empty message is kept or sent",
    run: (format) =>
      inWorld(format, {}, async (w) => {
        w.provider.push(main(reply.of()), main(reply.text("second")));
        const first = await w.session.run("say nothing");
        assert.equal(first.outcome, "completed", first.reason);
        const second = await w.session.run("now say something");
        assert.equal(second.outcome, "completed", second.reason);
        for (const r of await recordsOf(w, "message")) {
          const content = (r.message as { content: unknown[] }).content;
          assert.ok(content.length > 0, "no empty message is recorded");
        }
        assertWellFormed(w);
      }),
  },
  {
    name: "a stream that ends without its stop event: retried while nothing streamed, final after text",
    run: (format) =>
      inWorld(format, {}, async (w) => {
        w.provider.push(
          main({ ...reply.of(), fault: { endWithoutStop: true } }),
          main(reply.text("ok")),
        );
        assert.equal((await w.session.run("one")).outcome, "completed");
        assert.equal(w.waits.length, 1);
        w.provider.push(main({ ...reply.text("half an ans"), fault: { endWithoutStop: true } }));
        const cut = await w.session.run("two");
        assert.equal(cut.outcome, "failed");
        assert.match(
          cut.reason ?? "",
          /network: the stream ended before the response was complete/,
        );
        w.provider.push(main(reply.text("three")));
        assert.equal((await w.session.run("three")).outcome, "completed");
        assertWellFormed(w);
      }),
  },
  {
    name: "a connection dropped in a tool call's JSON: retried, the call runs once",
    run: (format) =>
      inWorld(format, {}, async (w) => {
        const call = () => reply.toolCall("Bash", { command: w.sideEffect("once") });
        w.provider.push(main({ ...call(), fault: { drop: "inToolInput" } }), main(call()), done());
        const turn = await w.session.run("go");
        assert.equal(turn.outcome, "completed", turn.reason);
        assert.deepEqual(await w.effects(), ["once"]);
        assert.equal(w.waits.length, 1);
        assertWellFormed(w);
      }),
  },
];
