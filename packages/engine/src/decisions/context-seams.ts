import type { Message, ToolCallId, ToolResultContent, TurnId } from "@z-engine/protocol";
import type { SessionCore } from "../core/session-core.js";
import type { ClearableResult, SeamAdvice } from "./seams.js";
import { fileLooker } from "./file-look.js";
import { type DecisionHost, decisionsOf } from "./session-hub.js";
import { offerSuggestion } from "./suggestions.js";
import { planTaskView, viewCandidates } from "./task-view.js";

/** The part of a turn the context seams need. */
interface SeamScope {
  readonly signal: AbortSignal;
  readonly turnId: TurnId;
}

const textOf = (content: readonly ToolResultContent[]) =>
  content.map((c) => (c.type === "text" ? c.text : "")).join("");

/** A call's input in a few words: its path, command or pattern, else its JSON's start. */
function summaryOf(input: unknown): string {
  const o = (input ?? {}) as Record<string, unknown>;
  const named = [o.file_path, o.path, o.command, o.pattern, o.url, o.description].find(
    (v) => typeof v === "string",
  );
  return String(named ?? JSON.stringify(input) ?? "").slice(0, 120);
}

/** Every uncleared tool result of `messages` as the pressure seam lists it, in order. */
function clearable(messages: readonly Message[]): ClearableResult[] {
  const calls = new Map<string, { name: string; input: unknown }>();
  const out: ClearableResult[] = [];
  for (const m of messages)
    for (const b of m.content) {
      if (b.type === "toolUse") calls.set(b.id, { name: b.name, input: b.input });
      if (b.type !== "toolResult") continue;
      const text = textOf(b.content);
      // Already cleared (context's placeholder): nothing left to clear or keep.
      if (text.startsWith("[Old tool result cleared")) continue;
      const call = calls.get(b.toolUseId);
      out.push({
        toolUseId: b.toolUseId,
        toolName: call?.name ?? "tool",
        summary: summaryOf(call?.input),
        chars: text.length,
      });
    }
  return out;
}

const latestPrompt = (messages: readonly Message[]) => {
  const user = messages.findLast(
    (m) => m.role === "user" && m.content.some((b) => b.type === "text"),
  );
  return (user?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("\n");
};

/**
 * The context-pressure seam (architecture.md "One round" step 2): the uses may keep planned
 * clears or add other results (not those of the newest message); keeping wins. Returns the
 * plan to carry out, `plan` itself when no use runs or none advises. Never rejects.
 */
export async function plannedClears<P extends { readonly toolUseIds: readonly ToolCallId[] }>(
  core: DecisionHost,
  scope: SeamScope,
  messages: readonly Message[],
  plan: P,
): Promise<Pick<P, "toolUseIds">> {
  const hub = decisionsOf(core);
  if (!hub.joins("contextPressure")) return plan;
  const planned = new Set<string>(plan.toolUseIds);
  const newest = new Set<string>(
    (messages.at(-1)?.content ?? []).flatMap((b) => (b.type === "toolResult" ? [b.toolUseId] : [])),
  );
  const all = clearable(messages);
  const input = {
    task: latestPrompt(messages),
    planned: all.filter((r) => planned.has(r.toolUseId)),
    candidates: all.filter((r) => !planned.has(r.toolUseId) && !newest.has(r.toolUseId)),
  };
  const advice = await hub.consult("contextPressure", input, scope);
  if (advice.length === 0) return plan;
  const order = all.map((r) => r.toolUseId as ToolCallId);
  return { toolUseIds: applyClearAdvice(order, plan.toolUseIds, advice) };
}

/**
 * The clears to carry out: the planned ones and those any advice adds, less those any
 * advice keeps (keeping wins), in `order` (the results' order in the history).
 */
export function applyClearAdvice<Id extends string>(
  order: readonly Id[],
  planned: readonly Id[],
  advice: readonly SeamAdvice<"contextPressure">[],
): Id[] {
  const plan = new Set<string>(planned);
  const keep = new Set(advice.flatMap((a) => a.keep));
  const add = new Set(advice.flatMap((a) => a.add));
  return order.filter((id) => (plan.has(id) || add.has(id)) && !keep.has(id));
}

/**
 * The relevance seam, on the tool-result path: for a long, text-only result a use may pick
 * the line ranges that matter. The model then gets those lines and a pointer to an artifact
 * holding the full result (a tool's own display, if any, is left as it is). Returns
 * `content` itself when no use runs, none advises or the artifact cannot be stored. Never
 * rejects.
 */
export async function relevantParts(
  core: DecisionHost & Pick<SessionCore, "log">,
  call: { readonly tool: { readonly name: string }; readonly input: unknown },
  content: readonly ToolResultContent[],
  scope: SeamScope,
): Promise<readonly ToolResultContent[]> {
  const hub = decisionsOf(core);
  if (!hub.joins("relevance") || content.some((c) => c.type !== "text")) return content;
  const text = textOf(content);
  const toolName = call.tool.name;
  const [advice] = await hub.consult("relevance", { toolName, input: call.input, text }, scope);
  if (!advice || scope.signal.aborted) return content;
  const lines = text.split("\n");
  let ref: string;
  try {
    ref = (await core.log.artifacts.put(`tool-result-${toolName}-full.txt`, text)).ref;
  } catch {
    return content;
  }
  const parts = advice.keepLines.map(
    ([a, b]) => `[lines ${a}-${b} of ${lines.length}]\n${lines.slice(a - 1, b).join("\n")}`,
  );
  const note = `[Only the parts of this ${toolName} result that matter are shown, as a decision model picked them; the full result (${lines.length} lines) is stored as ${ref}; call again more narrowly for other parts.]`;
  return [{ type: "text", text: `${parts.join("\n")}\n\n${note}` }];
}

/** The turn-start seam's input beyond the prompt: the session's first turn gets its files and tools. */
function turnStartExtras(
  core: Pick<SessionCore, "workingSet" | "doors" | "projectRoot" | "mcp"> &
    Partial<Pick<SessionCore, "repoMap">>,
) {
  const firstTurn = core.workingSet().length === 0;
  if (!firstTurn) return { firstTurn };
  const map = core.repoMap;
  return {
    firstTurn,
    projectFiles: async () => (map ? await map.projectFiles() : []),
    deferredTools: core.mcp.deferredTools(),
    look: fileLooker(core.doors.project, core.projectRoot),
  };
}

/**
 * The turn-start seam, after the UserPromptSubmit hooks and before the opening message is
 * built: the uses' reminders join that message, their cards are offered (`suggested`), the
 * deferred MCP tools they name are loaded (their definitions go in the first request), and
 * the exchanges a task view sets aside are planned, to apply once the request is saved
 * (`applyTaskView`). Never rejects.
 */
export async function remindAtTurnStart(
  core: DecisionHost &
    Pick<
      SessionCore,
      "reminders" | "mode" | "workingSet" | "definitions" | "doors" | "projectRoot" | "mcp"
    > &
    Partial<Pick<SessionCore, "repoMap">>,
  scope: SeamScope,
  prompt: string,
): Promise<void> {
  const hub = decisionsOf(core);
  if (!hub.joins("turnStart")) return;
  const exchanges = viewCandidates(core.workingSet());
  const skills = (core.definitions?.skills ?? []).map((k) => ({
    name: k.name,
    description: k.description,
  }));
  const input = { prompt, mode: core.mode, exchanges, skills, ...turnStartExtras(core) };
  const advice = await hub.consult("turnStart", input, scope);
  for (const [i, text] of advice.flatMap((a) => a.reminders ?? []).entries())
    core.reminders.add({ key: `turnStart:${scope.turnId}:${i}`, text });
  const load = advice.flatMap((a) => a.loadTools ?? []);
  if (load.length > 0 && !scope.signal.aborted) core.mcp.load(load);
  planTaskView(
    scope,
    advice.flatMap((a) => a.setAside ?? []),
  );
  for (const a of advice) if (a.suggestion) offerSuggestion(core, a.suggestion, scope.turnId);
}
