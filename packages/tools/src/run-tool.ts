import { parseWith } from "@z-engine/protocol";
import type { ToolCtx } from "./ctx.js";
import type { Action } from "./external.js";
import type { Tool } from "./tool.js";
import { errorOutput, type ToolOutput } from "./tool-output.js";

/** A validated input, or the message naming the field that failed. */
export type ToolInputResult<I> =
  | { readonly ok: true; readonly input: I }
  | { readonly ok: false; readonly error: string };

/**
 * Validates a raw model input against the tool's schema. Unknown fields, wrong types and
 * missing fields give an error naming the field, e.g. `Invalid input for Edit: file_path:
 * missing field (expected string)`. Never throws.
 */
export function parseToolInput<I>(tool: Tool<I>, raw: unknown): ToolInputResult<I> {
  const parsed = parseWith(tool.inputSchema, raw);
  if (parsed.ok) return { ok: true, input: parsed.value };
  const where = parsed.error.path === "" ? "" : `${parsed.error.path}: `;
  return { ok: false, error: `Invalid input for ${tool.name}: ${where}${parsed.error.message}` };
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * Validates the raw input, then runs the call as {@link runParsedTool} does; an invalid input
 * gives an error output naming the field. Never rejects.
 */
export async function runTool<I>(
  tool: Tool<I>,
  raw: unknown,
  ctx: ToolCtx,
): Promise<ToolOutput & { readonly thrown?: string }> {
  const parsed = parseToolInput(tool, raw);
  if (!parsed.ok) return errorOutput(parsed.error);
  return runParsedTool(tool, parsed.input, ctx);
}

/**
 * Runs a call whose input already passed {@link parseToolInput} (the gate parses once and
 * carries the value here; it is not validated again). Whatever the call throws becomes an
 * error output (`thrown` is set so the engine can raise a notice); a cancelled call gives an
 * error output saying so. Never rejects.
 */
export async function runParsedTool<I>(
  tool: Tool<I>,
  input: I,
  ctx: ToolCtx,
): Promise<ToolOutput & { readonly thrown?: string }> {
  if (ctx.signal.aborted) return errorOutput("Cancelled before it started.");
  try {
    return await tool.call(input, ctx);
  } catch (error) {
    if (ctx.signal.aborted) return errorOutput("Cancelled.");
    const message = errorMessage(error);
    return { ...errorOutput(`${tool.name} failed: ${message}`), thrown: message };
  }
}

/** The actions of a call with its parsed input, or why they could not be had. */
export type ToolActionsResult<I> =
  | { readonly ok: true; readonly input: I; readonly actions: Action[] }
  | { readonly ok: false; readonly error: string };

/**
 * The actions of a raw call for the gate: the validation error when the input is invalid
 * (such a call is answered with the error, never gated), else the parsed input and the
 * tool's actions, as {@link parsedToolActions} gives them. Never rejects.
 */
export async function toolActions<I>(
  tool: Tool<I>,
  raw: unknown,
  ctx: ToolCtx,
): Promise<ToolActionsResult<I>> {
  const parsed = parseToolInput(tool, raw);
  if (!parsed.ok) return parsed;
  return parsedToolActions(tool, parsed.input, ctx);
}

/**
 * The actions of a call whose input already passed {@link parseToolInput}, with that input
 * carried along (for {@link runParsedTool}). A throw from `action()` is returned as an
 * error. Never rejects.
 */
export async function parsedToolActions<I>(
  tool: Tool<I>,
  input: I,
  ctx: ToolCtx,
): Promise<ToolActionsResult<I>> {
  try {
    return { ok: true, input, actions: await tool.action(input, ctx) };
  } catch (error) {
    return {
      ok: false,
      error: `${tool.name} could not describe its action: ${errorMessage(error)}`,
    };
  }
}
