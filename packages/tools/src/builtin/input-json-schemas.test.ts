import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseToolInput } from "../run-tool.js";
import { defineTool, toolSpec } from "../tool.js";
import { textOutput } from "../tool-output.js";
import { builtinTools } from "./builtins.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";

/** The JSON Schema as toolSpec converted every tool's schema before the ahead-of-time table. */
function convertedTheOldWay(schema: z.ZodType): string {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return JSON.stringify(rest);
}

describe("built-in tools' ahead-of-time input JSON Schemas", () => {
  it("are byte for byte what converting each tool's zod schema gives (else: pnpm gen:json-schemas)", () => {
    for (const tool of builtinTools()) {
      expect(builtinInputJsonSchema(tool.name), tool.name).toBeDefined();
      expect(tool.inputJsonSchema, tool.name).toBe(builtinInputJsonSchema(tool.name));
      expect(JSON.stringify(toolSpec(tool).inputSchema), tool.name).toBe(
        convertedTheOldWay(tool.inputSchema),
      );
    }
  });

  it("cover exactly the built-in tools", () => {
    for (const tool of builtinTools()) expect(builtinInputJsonSchema(tool.name)).toBeDefined();
    expect(builtinInputJsonSchema("NoSuchTool")).toBeUndefined();
  });

  it("leave each tool's lazily built schema rejecting bad input and accepting good input", () => {
    const read = builtinTools().find((t) => t.name === "Read");
    const ask = builtinTools().find((t) => t.name === "AskUserQuestion");
    if (!read || !ask) throw new Error("Read and AskUserQuestion are built-in tools");
    expect(parseToolInput(read, { file_path: 5 })).toEqual({
      ok: false,
      error: expect.stringMatching(/^Invalid input for Read: file_path: /),
    });
    expect(parseToolInput(read, { file_path: "/a", extra: true }).ok).toBe(false);
    expect(parseToolInput(read, { file_path: "/a", offset: 2 })).toEqual({
      ok: true,
      input: { file_path: "/a", offset: 2 },
    });
    // A nested lazily built schema (the question inside the questions array).
    const question = { question: "Which?", options: [{ label: "a" }], multiSelect: false };
    expect(parseToolInput(ask, { questions: [question] }).ok).toBe(false);
    expect(
      parseToolInput(ask, {
        questions: [{ ...question, options: [{ label: "a" }, { label: "b" }] }],
      }).ok,
    ).toBe(true);
  });
});

describe("defineTool with a schema given as a function", () => {
  it("builds it on the first read of inputSchema, once, and validates with it", () => {
    let builds = 0;
    const tool = defineTool({
      name: "Echo",
      description: "Echoes",
      inputSchema: () => {
        builds++;
        return z.strictObject({ text: z.string().min(1) });
      },
      call: async (input) => textOutput(input.text),
    });
    expect(builds).toBe(0);
    expect(parseToolInput(tool, { text: "" }).ok).toBe(false);
    expect(parseToolInput(tool, { text: "hi" })).toEqual({ ok: true, input: { text: "hi" } });
    expect(tool.inputSchema).toBe(tool.inputSchema);
    expect(builds).toBe(1);
    expect(toolSpec(tool).inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string", minLength: 1 } },
      required: ["text"],
      additionalProperties: false,
    });
  });
});
