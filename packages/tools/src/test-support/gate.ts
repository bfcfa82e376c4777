import {
  compileRules,
  type DecideContext,
  type Decision,
  decide,
  type PermissionRules,
} from "@z-engine/policy";
import type { PermissionMode } from "@z-engine/protocol";
import type { ToolCtx } from "../ctx.js";
import type { Tool } from "../tool.js";

/** The rules of a test: rule texts for each list. */
export interface TestRules {
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
}

/** Compiles test rules as a project's settings would give them. */
export function testRules(rules: TestRules, projectRoot: string): PermissionRules {
  const origin = { source: "test settings", root: projectRoot };
  return {
    allow: compileRules(rules.allow ?? [], origin).rules,
    ask: compileRules(rules.ask ?? [], origin).rules,
    deny: compileRules(rules.deny ?? [], origin).rules,
  };
}

/** The gate's facts for a project and a home folder. */
export function testDecideContext(projectRoot: string, homeDir: string): DecideContext {
  return { projectRoot, additionalDirectories: [], homeDir, autoAllowReadOnlyBash: false };
}

/** What the real gate decides for a tool call: the tool's actions through policy's `decide()`. */
export async function gateDecision<I>(
  tool: Tool<I>,
  input: I,
  ctx: ToolCtx,
  mode: PermissionMode,
  rules: PermissionRules,
  context: DecideContext,
): Promise<Decision> {
  return decide(
    { toolName: tool.name, actions: await tool.action(input, ctx) },
    mode,
    rules,
    context,
  );
}

/** `ToolCtx.readDenied` as the engine builds it: the gate's answer for a Read of the path. */
export function readDeniedBy(
  rules: PermissionRules,
  context: DecideContext,
): (path: string) => boolean {
  return (path) =>
    decide({ toolName: "Read", actions: [{ kind: "read", paths: [path] }] }, "ask", rules, context)
      .type === "deny";
}
