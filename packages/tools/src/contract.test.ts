import { BUILTIN_TOOL_NAMES } from "@z-engine/prompts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinTools } from "./builtin/builtins.js";
import {
  parsedToolActions,
  parseToolInput,
  runParsedTool,
  runTool,
  toolActions,
} from "./run-tool.js";
import { testCtx, textOf } from "./test-support/ctx.js";
import { defineTool, toolSpec } from "./tool.js";
import { textOutput } from "./tool-output.js";

const echo = defineTool({
  name: "Echo",
  description: "Echoes",
  inputSchema: z.strictObject({ text: z.string(), times: z.number().int().default(1) }),
  call: async (input) => textOutput(input.text.repeat(input.times)),
});

describe("defineTool", () => {
  it("fills defaults: not read-only, action none, title = name, no preview", async () => {
    const ctx = testCtx({ root: "/tmp" });
    expect(echo.isReadOnly({ text: "a", times: 1 })).toBe(false);
    expect(echo.isConcurrencySafe({ text: "a", times: 1 })).toBe(false);
    expect(await echo.action({ text: "a", times: 1 }, ctx)).toEqual([{ kind: "none" }]);
    expect(echo.title({ text: "a", times: 1 }, ctx)).toBe("Echo");
    expect(await echo.preview({ text: "a", times: 1 }, ctx)).toBeNull();
    expect(echo.requires).toEqual([]);
  });

  it("exports the input schema with io input, so defaulted fields are optional", () => {
    const spec = toolSpec(echo);
    expect(spec.name).toBe("Echo");
    expect(spec.inputSchema.required).toEqual(["text"]);
    expect(spec.inputSchema.additionalProperties).toBe(false);
    expect(spec.inputSchema.$schema).toBeUndefined();
  });
});

describe("runTool", () => {
  const ctx = testCtx({ root: "/tmp" });

  it("runs a valid call", async () => {
    const out = await runTool(echo, { text: "ab", times: 2 }, ctx);
    expect(out.isError).toBe(false);
    expect(textOf(out)).toBe("abab");
  });

  it("names the field of a missing, mistyped or unknown input", async () => {
    expect(textOf(await runTool(echo, {}, ctx))).toMatch(
      /Invalid input for Echo: text: missing field/,
    );
    expect(textOf(await runTool(echo, { text: 5 }, ctx))).toMatch(/text: expected string/);
    expect(textOf(await runTool(echo, { text: "a", extra: 1 }, ctx))).toMatch(
      /unknown field\(s\): extra/,
    );
    expect(textOf(await runTool(echo, "not an object", ctx))).toMatch(/Invalid input for Echo/);
    expect((await runTool(echo, null, ctx)).isError).toBe(true);
  });

  it("turns a throw into an error output, and reports it", async () => {
    const thrower = defineTool({
      name: "Boom",
      description: "",
      inputSchema: z.object({}),
      call: async () => {
        throw new Error("kaput");
      },
    });
    const out = await runTool(thrower, {}, ctx);
    expect(out.isError).toBe(true);
    expect(textOf(out)).toBe("Boom failed: kaput");
    expect(out.thrown).toBe("kaput");
  });

  it("does not start a call that is already cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const out = await runTool(
      echo,
      { text: "a" },
      testCtx({ root: "/tmp", signal: controller.signal }),
    );
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/Cancelled/);
  });

  it("gives actions only for valid input", async () => {
    expect(await toolActions(echo, { text: "a" }, ctx)).toEqual({
      ok: true,
      input: { text: "a", times: 1 },
      actions: [{ kind: "none" }],
    });
    expect(await toolActions(echo, {}, ctx)).toMatchObject({ ok: false });
    expect(parseToolInput(echo, { text: "x" })).toEqual({
      ok: true,
      input: { text: "x", times: 1 },
    });
  });

  it("takes a parsed input as it is: the parsed forms never parse again", async () => {
    let parses = 0;
    const counted = defineTool({
      name: "Counted",
      description: "Counts parses",
      inputSchema: z.strictObject({ n: z.number() }).transform((v) => {
        parses++;
        return { n: v.n * 2 };
      }),
      action: async (input) => [{ kind: "read", paths: [`/tmp/${input.n}`] }],
      call: async (input) => textOutput(String(input.n)),
    });
    const parsed = parseToolInput(counted, { n: 2 });
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parses).toBe(1);
    expect(await parsedToolActions(counted, parsed.input, ctx)).toEqual({
      ok: true,
      input: { n: 4 },
      actions: [{ kind: "read", paths: ["/tmp/4"] }],
    });
    expect(textOf(await runParsedTool(counted, parsed.input, ctx))).toBe("4");
    expect(parses).toBe(1);
    // The raw forms parse (once each), so a raw input is doubled by the transform.
    expect(textOf(await runTool(counted, { n: 2 }, ctx))).toBe("4");
    expect(parses).toBe(2);
  });
});

describe("builtinTools", () => {
  it("lists each tool once, with a description from prompts and a valid JSON schema", () => {
    const tools = builtinTools();
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        "Read",
        "Write",
        "Edit",
        "MultiEdit",
        "Glob",
        "Grep",
        "Bash",
        "Verify",
      ]),
    );
    for (const tool of tools) {
      expect((BUILTIN_TOOL_NAMES as readonly string[]).includes(tool.name)).toBe(true);
      expect(tool.description.length).toBeGreaterThan(20);
      expect(toolSpec(tool).inputSchema.type).toBe("object");
    }
  });

  it("uses Claude Code's input field names", () => {
    const fields = (name: string) =>
      Object.keys(
        toolSpec(builtinTools().find((t) => t.name === name)!).inputSchema.properties as object,
      );
    expect(fields("Read")).toEqual(["file_path", "offset", "limit"]);
    expect(fields("Edit")).toEqual(["file_path", "old_string", "new_string", "replace_all"]);
    expect(fields("Write")).toEqual(["file_path", "content"]);
    expect(fields("Bash")).toEqual(
      expect.arrayContaining(["command", "timeout", "run_in_background"]),
    );
    expect(fields("Grep")).toEqual(
      expect.arrayContaining([
        "pattern",
        "path",
        "glob",
        "type",
        "output_mode",
        "-i",
        "-n",
        "-A",
        "-B",
        "-C",
        "multiline",
        "head_limit",
      ]),
    );
    expect(fields("Glob")).toEqual(["pattern", "path"]);
  });
});
