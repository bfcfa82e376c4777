import type { McpServerStatus } from "@z-engine/protocol";
import { toolSpec } from "@z-engine/tools";
import type { SessionHandle } from "../session/handle.js";
import { OFF_MAP, type RepoMapStatus } from "../repo-map/map-status.js";
import { type ContextUsage, contextUsage } from "./context-usage.js";
import { type CompactionSummary, compactionsOf } from "../history/compactions.js";
import { targetOf } from "./registry.js";

/** A part of the request and its estimated size. */
export interface ContextPart {
  readonly id: string;
  readonly tokens: number;
}

/** What the model sees now, as the Context screen shows it. */
export interface ContextReport {
  readonly usage: ContextUsage;
  /** The system sections in request order (base prompt, environment, instructions, skills, ...). */
  readonly sections: readonly ContextPart[];
  /** The instruction files the instructions section holds, in precedence order (lowest first). */
  readonly instructionFiles: readonly ContextPart[];
  readonly skills: readonly {
    readonly name: string;
    readonly description: string;
    readonly scope: string;
  }[];
  /** Built-in and host tools, then the MCP tools the request carries, each with its definition's size. */
  readonly tools: readonly ContextPart[];
  readonly messages: { readonly count: number; readonly tokens: number };
  readonly repoMap: RepoMapStatus;
  readonly mcpServers: readonly McpServerStatus[];
  /** The MCP servers logged in with OAuth (tokens stored), which a host offers a logout for. */
  readonly mcpLogins: readonly string[];
  readonly compactions: readonly CompactionSummary[];
  /** Old tool results cleared to save room (their originals are artifacts). */
  readonly clearedToolResults: number;
}

const INSTRUCTION_BLOCK = /<instructions source="([^"]*)">\n([\s\S]*?)\n<\/instructions>/g;

/**
 * What the main agent's next request holds: each system section, instruction file, skill and
 * tool with its estimated size, the conversation, the repo map, MCP servers, and the log's
 * compactions and cleared results. Rejects only when the log cannot be read.
 */
export async function contextReport(handle: SessionHandle): Promise<ContextReport> {
  const { session } = targetOf(handle);
  const e = session.estimator;
  const sections = session.system.map((s) => ({ id: s.id, tokens: e.estimateText(s.text) }));
  const instructions = session.system.find((s) => s.id === "instructions")?.text ?? "";
  const instructionFiles = [...instructions.matchAll(INSTRUCTION_BLOCK)].map((m) => ({
    id: m[1] ?? "",
    tokens: e.estimateText(m[2] ?? ""),
  }));
  const specs = [...session.tools.map(toolSpec), ...session.mcp.requestSpecs()];
  const tools = specs.map((spec) => ({
    id: spec.name,
    tokens: e.estimateRequest({ system: [], tools: [spec], messages: [] }),
  }));
  const working = session.workingSet();
  const { compactions, records } = await compactionsOf(session.logPath);
  let cleared = 0;
  for (const r of records) if (r.kind === "toolResultsCleared") cleared += r.clearing.calls.length;
  return {
    usage: contextUsage(session),
    sections,
    instructionFiles,
    skills: (session.definitions?.skills ?? []).map((s) => ({
      name: s.name,
      description: s.description,
      scope: s.scope,
    })),
    tools,
    messages: { count: working.length, tokens: e.estimateMessages(working) },
    repoMap: session.repoMap?.status() ?? OFF_MAP,
    mcpServers: session.mcp.status(),
    mcpLogins: await session.mcp.loggedIn(),
    compactions,
    clearedToolResults: cleared,
  };
}
