import { parseEventEnvelopeJson } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { FORMATS, main, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

describe.each(FORMATS)("the stream-json contract over %s", (format) => {
  it("every line parses; envelopes carry v, sessionId, strictly increasing seq and ts; the last line is the result", async () => {
    w = await world({ format });
    w.provider.push(
      main(
        reply.toolCalls([{ name: "Glob", input: { pattern: "**/*.js" } }], { text: "Looking. " }),
      ),
      main(reply.text("Two files.", { usage: { input: 120, output: 8 } })),
    );
    const before = Date.now();
    const run = await w.run(["-p", "list the js files", "--output-format", "stream-json"]);
    expect(run.code).toBe(0);
    expect(run.stdout.endsWith("\n")).toBe(true);
    const lines = run.stdout.slice(0, -1).split("\n");
    const last = JSON.parse(lines.pop() as string) as Record<string, unknown>;
    expect(lines.length).toBeGreaterThan(8);
    let seq = -1;
    for (const line of lines) {
      const parsed = parseEventEnvelopeJson(line);
      if (!parsed.ok) throw new Error(`${parsed.error.path}: ${parsed.error.message}: ${line}`);
      const envelope = parsed.value;
      expect(envelope.v).toBe(2);
      expect(envelope.sessionId).toBe(last.sessionId);
      expect(envelope.seq).toBeGreaterThan(seq);
      seq = envelope.seq;
      expect(envelope.ts).toBeGreaterThanOrEqual(before - 1000);
      expect(envelope.ts).toBeLessThanOrEqual(Date.now());
    }
    const types = lines.map((l) => (JSON.parse(l) as { event: { type: string } }).event.type);
    expect(types.at(-1)).toBe("turnFinished");
    expect(types).toContain("textDelta");
    expect(Object.keys(last).sort()).toEqual(
      ["badge", "costUsd", "durationMs", "outcome", "sessionId", "type", "usage"].sort(),
    );
    expect(last).toMatchObject({
      type: "result",
      outcome: "completed",
      badge: { status: "notApplicable" },
      usage: { input: 120, output: 8 },
    });
    expect(last.costUsd).toBe((last.usage as { costUsd: number }).costUsd);
    expect(last.costUsd as number).toBeGreaterThan(0);
  });
});
