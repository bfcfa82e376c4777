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
   * server's tool) or was converted ahead of time (the built-in tools: the bytes
   * `inputSchema` converts to); {@link toolSpec} then sends it instead of converting
   * `inputSchema`.
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
  /**
   * The input's schema, or a function that builds it: then it is built when first read
   * (validating a call, or converting it when there is no `inputJsonSchema`), once.
   */
  readonly inputSchema: S | (() => S);
  /**
   * The input's JSON Schema, converted ahead of time: it must be exactly what {@link toolSpec}
   * would convert `inputSchema` to (the built-in tools check theirs in a test). Default: none.
   */
  readonly inputJsonSchema?: Readonly<Record<string, unknown>>;
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
 * A schema built when first asked for, then the same instance every time: module-level
 * schemas that start-up does not need cost their construction (and its garbage) only when
 * used (issue 18).
 */
export function lazySchema<S extends z.ZodType>(build: () => S): () => S {
  let schema: S | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}

/** The schema `inputSchema` stands for, built on the first call when it is a function. */
function schemaGetter<S extends z.ZodType>(inputSchema: S | (() => S)): () => S {
  return typeof inputSchema === "function"
    ? lazySchema(inputSchema as () => S)
    : () => inputSchema as S;
}

/**
 * Builds a {@link Tool} from a definition, filling defaults: not read-only, concurrency-safe
 * when read-only, action `none`, title = name, no preview. A schema given as a function is
 * built on first read of `inputSchema`. Never throws.
 */
export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): Tool<z.output<S>> {
  const isReadOnly = def.isReadOnly ?? (() => false);
  const schema = schemaGetter(def.inputSchema);
  return {
    name: def.name,
    description: def.description,
    get inputSchema() {
      return schema() as unknown as z.ZodType<z.output<S>>;
    },
    ...(def.inputJsonSchema ? { inputJsonSchema: def.inputJsonSchema } : {}),
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

/**
 * A tool input schema's JSON Schema as the model is offered it (`io: "input"`, no
 * `$schema`): what {@link toolSpec} sends for a tool without `inputJsonSchema`, and how the
 * built-in tools' ahead-of-time schemas are made. A fresh object each call.
 */
export function convertInputSchema(schema: z.ZodType): Record<string, unknown> {
  const converted = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  const { $schema: _ignored, ...rest } = converted as Record<string, unknown>;
  return rest;
}

function jsonSchemaOf(schema: z.ZodType): Readonly<Record<string, unknown>> {
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = convertInputSchema(schema);
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
