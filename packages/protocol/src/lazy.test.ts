import { describe, expect, it } from "vitest";
import { z } from "zod";
import { EngineEvent, EventEnvelope, lastingEvents } from "./events.js";
import * as protocol from "./index.js";
import { lazily, once } from "./lazy.js";

describe("lazily", () => {
  it("builds on first use, once, and behaves as the schema it stands for", () => {
    let builds = 0;
    const build = once(() => {
      builds++;
      return z.object({ a: z.number().int(), b: z.string().describe("the b") });
    });
    const schema = lazily(build);
    expect(builds).toBe(0);
    expect(schema.parse({ a: 1, b: "x" })).toEqual({ a: 1, b: "x" });
    expect(schema.safeParse({ a: 1.5, b: "x" }).success).toBe(false);
    expect(builds).toBe(1);
    expect(schema instanceof z.ZodObject).toBe(true);
    expect(Object.keys(schema.shape)).toEqual(["a", "b"]);
    expect(schema.extend({ c: z.boolean() }).parse({ a: 1, b: "x", c: true })).toEqual({
      a: 1,
      b: "x",
      c: true,
    });
    expect(schema.omit({ b: true }).parse({ a: 2 })).toEqual({ a: 2 });
    expect(schema.shape.b.description).toBe("the b");
    expect(z.toJSONSchema(schema)).toEqual(z.toJSONSchema(build()));
    // As a field of another schema.
    expect(z.object({ inner: schema }).parse({ inner: { a: 3, b: "y" } })).toEqual({
      inner: { a: 3, b: "y" },
    });
    expect(builds).toBe(1);
  });

  it("stands for plain objects of schemas too, and rethrows a failed build on each use", () => {
    const table = lazily(() => ({ one: z.literal(1) }));
    expect("one" in table).toBe(true);
    expect(Object.keys(table)).toEqual(["one"]);
    expect(table.one.parse(1)).toBe(1);
    const broken = lazily((): { x: number } => {
      throw new Error("no");
    });
    expect(() => broken.x).toThrow("no");
    expect(() => broken.x).toThrow("no");
  });

  it("leaves the event schemas as they were: a union of objects, the same values in lastingEvents", () => {
    expect(EngineEvent instanceof z.ZodDiscriminatedUnion).toBe(true);
    const types = EngineEvent.options.map((o) => o.shape.type.value);
    for (const [type, schema] of Object.entries(lastingEvents)) {
      expect(types).toContain(type);
      expect(EngineEvent.options).toContain(schema);
    }
    expect(EventEnvelope.shape.event.options).toBe(EngineEvent.options);
    const envelope = {
      v: 2,
      sessionId: "ses_1",
      seq: 0,
      ts: 1,
      event: { type: "titleChanged", title: "t" },
    };
    expect(EventEnvelope.parse(envelope)).toEqual(envelope);
  });

  it("keeps every exported schema a zod schema", () => {
    const schemas = Object.entries(protocol).filter(([, value]) => value instanceof z.ZodType);
    expect(schemas.length).toBeGreaterThan(60);
    for (const [name, schema] of schemas) {
      expect(typeof (schema as z.ZodType).safeParse, name).toBe("function");
      expect(z.toJSONSchema(schema as z.ZodType, { unrepresentable: "any" }), name).toBeTypeOf(
        "object",
      );
    }
    expect(protocol.EngineCommand.parse({ type: "cancel" })).toEqual({ type: "cancel" });
    expect(protocol.Usage.shape.costUsd).toBeInstanceOf(z.ZodNumber);
  });
});
