import type { ToolDisplay, ToolSpec } from "@z-engine/protocol";
import { z } from "zod";
import type { ToolCtx } from "./ctx.js";
import type { Action } from "./external.js";
import type { PortName } from "./ports.js";
import type { ToolOutput } from "./tool-output.js";

/**
 * A tool the model can call. Inputs are validated against `inputSchema` before any other
 * method sees them (use {@link runTool} / {@link toolActions}). Tools never ask for
 * permission: the engine gates each call on `action()`.
 */
export interface Tool<I = unknown> {
  readonly name: string;
  /** The description the model reads. */
  readonly description: string;
  /** Zod schema of the input; {@link toolSpec} exports it as JSON Schema. */
  readonly inputSchema: z.ZodType<I>;
  /** Ports the tool needs; the engine offers it only when all are present. */
  readonly requires: readonly PortName[];
  /**
   * The input's JSON Schema as the model is offered it, when it comes from elsewhere (an MCP
   * server's tool); {@link toolSpec} then sends it instead of converting `inputSchema`.
   */
  readonly inputJsonSchema?: Readonly<Record<string, unknown>>;
  /** True when the call changes nothing (may run beside other read-only calls). */
  isReadOnly(input: I): boolean;
  /** True when the call may run at the same time as other concurrency-safe calls. */
  isConcurrencySafe(input: I): boolean;
  /**
   * What the call would do, for the gate: paths resolved to real absolute paths, commands
   * parsed. Rejects only on a bug; an unresolvable path still yields an action on its best
   * absolute form.
   */
  action(input: I, ctx: ToolCtx): Promise<Action[]>;
  /** A short title, e.g. `Edit src/main.ts`. Never throws. */
  title(input: I, ctx: ToolCtx): string;
  /** What the approval card shows (a diff for an edit); `null` when nothing more than the title. Never rejects. */
  preview(input: I, ctx: ToolCtx): Promise<ToolDisplay | null>;
  /** Runs the call. May throw; {@link runTool} turns a throw into an error output. */
  call(input: I, ctx: ToolCtx): Promise<ToolOutput>;
}

/** What {@link defineTool} takes: the required parts, with defaults for the rest. */
export interface ToolDefinition<S extends z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: S;
  readonly requires?: readonly PortName[];
  /** Default false. */
  readonly isReadOnly?: (input: z.output<S>) => boolean;
  /** Default: same as isReadOnly. */
  readonly isConcurrencySafe?: (input: z.output<S>) => boolean;
  /** Default `[{ kind: "none" }]`. */
  readonly action?: (input: z.output<S>, ctx: ToolCtx) => Promise<Action[]>;
  /** Default: the tool's name. */
  readonly title?: (input: z.output<S>, ctx: ToolCtx) => string;
  /** Default: none. */
  readonly preview?: (input: z.output<S>, ctx: ToolCtx) => Promise<ToolDisplay | null>;
  readonly call: (input: z.output<S>, ctx: ToolCtx) => Promise<ToolOutput>;
}

/**
 * Builds a {@link Tool} from a definition, filling defaults: not read-only, concurrency-safe
 * when read-only, action `none`, title = name, no preview. Never throws.
 */
export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): Tool<z.output<S>> {
  const isReadOnly = def.isReadOnly ?? (() => false);
  return {
    name: def.name,
    description: def.description,
    inputSchema: def.inputSchema as unknown as z.ZodType<z.output<S>>,
    requires: def.requires ?? [],
    isReadOnly,
    isConcurrencySafe: def.isConcurrencySafe ?? isReadOnly,
    action: def.action ?? (async () => [{ kind: "none" }]),
    title: def.title ?? (() => def.name),
    preview: def.preview ?? (async () => null),
    call: def.call,
  };
}

/**
 * Each zod schema's JSON Schema, converted once per process: every request offers the tools,
 * and converting them all cost ~5 ms a round (issue 18). Zod schemas are immutable.
 */
const jsonSchemas = new WeakMap<z.ZodType, Readonly<Record<string, unknown>>>();

function jsonSchemaOf(schema: z.ZodType): Readonly<Record<string, unknown>> {
  let json = jsonSchemas.get(schema);
  if (!json) {
    const converted = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
    const { $schema: _ignored, ...rest } = converted as Record<string, unknown>;
    json = rest;
    jsonSchemas.set(schema, json);
  }
  return json;
}

/**
 * The tool as the model is offered it: name, description, input JSON Schema (`io: "input"`,
 * or the tool's own `inputJsonSchema`), its top level a fresh object. Never throws.
 */
export function toolSpec(tool: Tool): ToolSpec {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { ...(tool.inputJsonSchema ?? jsonSchemaOf(tool.inputSchema)) },
  };
}
