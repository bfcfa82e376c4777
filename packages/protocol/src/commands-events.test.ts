import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { EngineCommand, parseEngineCommand, parseEngineCommandJson } from "./commands.js";
import {
  EngineEvent,
  parseEngineEvent,
  parseEventEnvelope,
  parseEventEnvelopeJson,
} from "./events.js";
import { COMMAND_EXAMPLES, EVENT_EXAMPLES } from "./examples.js";
import { type ParseResult, parseWith } from "./parse.js";

type Shape = Record<string, z.ZodType>;

const shapeOf = (union: typeof EngineCommand | typeof EngineEvent, type: string): Shape => {
  const option = union.options.find((o) => (o.shape.type as z.ZodLiteral).value === type);
  if (!option) throw new Error(`no schema option for ${type}`);
  return option.shape as Shape;
};

const wrongValueFor = (value: unknown): unknown =>
  typeof value === "string"
    ? 12345
    : typeof value === "number"
      ? "not a number"
      : typeof value === "boolean"
        ? "yes"
        : 7;

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value));

/** Checks the bad-input cases of one example against `parse`, with paths under `prefix`. */
function checkBadInput(
  example: Record<string, unknown>,
  shape: Shape,
  parse: (v: Record<string, unknown>) => ParseResult<unknown>,
  prefix: string,
) {
  let requiredFields = 0;
  for (const key of Object.keys(shape)) {
    if (key === "type") continue;
    const field = shape[key] as z.ZodType;
    if (!field.safeParse(undefined).success) {
      requiredFields++;
      const { [key]: _dropped, ...missing } = example;
      const result = parse(missing);
      expect(result.ok, `${example.type} without ${key}`).toBe(false);
      if (!result.ok) expect(result.error.path).toBe(`${prefix}${key}`);
    }
    const wrong = wrongValueFor(example[key]);
    if (!field.safeParse(wrong).success) {
      const result = parse({ ...example, [key]: wrong });
      expect(result.ok, `${example.type} with ${key}=${JSON.stringify(wrong)}`).toBe(false);
      if (!result.ok) expect(result.error.path.startsWith(`${prefix}${key}`)).toBe(true);
    }
  }
  return requiredFields;
}

describe("commands", () => {
  it("has one example per command type", () => {
    expect(Object.keys(COMMAND_EXAMPLES).sort()).toEqual(
      EngineCommand.options.map((o) => o.shape.type.value).sort(),
    );
  });

  for (const [type, example] of Object.entries(COMMAND_EXAMPLES)) {
    it(`${type}: round-trips through JSON`, () => {
      const result = parseEngineCommandJson(JSON.stringify(example));
      expect(result).toEqual({ ok: true, value: example });
    });

    it(`${type}: reports missing fields, wrong types and unknown fields by path`, () => {
      checkBadInput(example, shapeOf(EngineCommand, type), parseEngineCommand, "");
      const extra = parseEngineCommand({ ...example, surprise: 1 });
      expect(extra).toEqual({
        ok: false,
        error: { path: "", message: "unknown field(s): surprise" },
      });
    });
  }

  it("gives the union's own result, parsing with the command's type's schema", () => {
    const values: unknown[] = [null, undefined, 3, "submit", [], {}, { type: 3 }];
    values.push({ type: "constructor" }, { type: "__proto__" }, { type: "toString" });
    for (const example of Object.values(COMMAND_EXAMPLES)) {
      values.push(example, { ...example, surprise: 1 }, { ...example, type: "Submit" });
      for (const key of Object.keys(example)) {
        if (key === "type") continue;
        const { [key]: _dropped, ...missing } = example as Record<string, unknown>;
        values.push(missing, { ...example, [key]: wrongValueFor((example as never)[key]) });
      }
    }
    for (const value of values)
      expect(parseEngineCommand(value), JSON.stringify(value)).toEqual(
        parseWith(EngineCommand, value),
      );
  });

  it("names an unknown type", () => {
    expect(parseEngineCommand({ type: "launchMissiles" })).toEqual({
      ok: false,
      error: { path: "type", message: 'unknown type "launchMissiles"' },
    });
    expect(parseEngineCommand({ text: "hi" })).toEqual({
      ok: false,
      error: { path: "type", message: 'missing "type"' },
    });
  });

  it("reports malformed JSON without throwing", () => {
    const result = parseEngineCommandJson('{"type": "submit", ');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/^malformed JSON/);
  });

  it("names nested paths", () => {
    const result = parseEngineCommand({
      type: "resolveApproval",
      approvalId: "appr_1",
      decision: { type: "allowSession" },
    });
    expect(result).toEqual({
      ok: false,
      error: { path: "decision.rule", message: "missing field (expected string)" },
    });
  });
});

describe("stopAgent", () => {
  it("takes exactly one of agentId and toolCallId", () => {
    for (const target of [{ agentId: "agent_1" }, { toolCallId: "toolu_1" }])
      expect(parseEngineCommand({ type: "stopAgent", ...target })).toEqual({
        ok: true,
        value: { type: "stopAgent", ...target },
      });
    expect(parseEngineCommand({ type: "stopAgent" })).toEqual({
      ok: false,
      error: { path: "", message: "stopAgent needs an agentId or a toolCallId" },
    });
    const both = { type: "stopAgent", agentId: "agent_1", toolCallId: "toolu_1" };
    expect(parseEngineCommand(both)).toEqual({
      ok: false,
      error: { path: "", message: "stopAgent takes an agentId or a toolCallId, not both" },
    });
    expect(parseEngineCommandJson(JSON.stringify(both))).toEqual(parseEngineCommand(both));
  });
});

describe("events", () => {
  const envelope = (event: unknown) => ({
    v: 2,
    sessionId: "ses_1",
    seq: 3,
    ts: 1_700_000_000_000,
    event,
  });

  it("has one example per event type", () => {
    expect(Object.keys(EVENT_EXAMPLES).sort()).toEqual(
      EngineEvent.options.map((o) => o.shape.type.value).sort(),
    );
  });

  for (const [type, example] of Object.entries(EVENT_EXAMPLES)) {
    it(`${type}: round-trips through JSON inside an envelope`, () => {
      const value = envelope(example);
      expect(parseEventEnvelopeJson(JSON.stringify(value))).toEqual({
        ok: true,
        value: roundTrip(value),
      });
      expect(parseEngineEvent(roundTrip(example))).toEqual({ ok: true, value: roundTrip(example) });
    });

    it(`${type}: reports missing fields and wrong types by path`, () => {
      const required = checkBadInput(
        example,
        shapeOf(EngineEvent, type),
        (e) => parseEventEnvelope(envelope(e)),
        "event.",
      );
      expect(required).toBeGreaterThan(0);
    });
  }

  it("names an unknown event type and envelope problems", () => {
    expect(parseEventEnvelope(envelope({ type: "fireworks" }))).toEqual({
      ok: false,
      error: { path: "event.type", message: 'unknown type "fireworks"' },
    });
    expect(parseEventEnvelope({ ...envelope(EVENT_EXAMPLES.modeChanged), v: 1 })).toMatchObject({
      ok: false,
      error: { path: "v" },
    });
    expect(parseEventEnvelope({ ...envelope(EVENT_EXAMPLES.modeChanged), seq: "3" })).toMatchObject(
      {
        ok: false,
        error: { path: "seq" },
      },
    );
  });

  it("names deep paths inside an event", () => {
    const bad = roundTrip(EVENT_EXAMPLES.assistantFinished);
    bad.message.content[1].text = 42;
    expect(parseEventEnvelope(envelope(bad))).toMatchObject({
      ok: false,
      error: { path: "event.message.content[1].text" },
    });
  });
});
