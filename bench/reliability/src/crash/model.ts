import { type FakeProviderRequest, part, reply, type ScriptReply } from "@z-engine/testkit";
import { wireMessages, wireToolNames } from "../wire/read.js";
import { offersTools } from "../wire/shape.js";

/** Where a kill lands: what the run is doing when the process group gets SIGKILL. */
export type CrashKind =
  | "append"
  | "stream"
  | "tool"
  | "checkpoint"
  | "compaction"
  | "subagent"
  | "mcp";

/** Every kind, in the order the fuzz cycles through them. */
export const CRASH_KINDS: readonly CrashKind[] = [
  "append",
  "stream",
  "tool",
  "checkpoint",
  "compaction",
  "subagent",
  "mcp",
];

/** The MCP tool the `mcp` kind calls (server-everything's slow tool). */
export const MCP_TOOL = "mcp__everything__trigger-long-running-operation";

/** What the model needs to know of its world. */
export interface CrashModelOptions {
  readonly kind: CrashKind;
  /** The file side effects append their token to. */
  readonly effectsFile: string;
  /** The project's folder (the checkpoint kind rewrites files under it). */
  readonly projectRoot: string;
  /** Called when a compaction summary is asked for (the harness may kill then). */
  readonly onSummary?: () => void;
}

const STEP = /(?:^|\n)step (\d+)\b/;
const SUBAGENT = /(?:^|\n)SUBAGENT step (\d+)\b/;

/**
 * The scripted model of the crash fuzz: a function of each request, as the fake provider's
 * `respond`. Like a real model it reads what it is sent (the prompt's `step N`, a subagent's
 * `SUBAGENT step N`, the tools offered) and remembers how far it got in each step, so a run
 * resumed after a kill gets well-formed, fresh work. Every side effect is a Bash call that
 * appends a fresh token to the effects file: a call run twice shows its token twice.
 */
export function crashModel(options: CrashModelOptions): (r: FakeProviderRequest) => ScriptReply {
  const served = new Map<string, number>();
  let tokens = 0;
  let lastStep = "0";
  const effect = (extra = "") => {
    tokens++;
    const token = `t${tokens}-${Math.random().toString(36).slice(2, 8)}`;
    return `echo ${token} >> ${options.effectsFile}${extra}`;
  };
  const bash = (command: string) => reply.toolCall("Bash", { command });
  return (request) => {
    if (!offersTools(request)) {
      options.onSummary?.();
      return { ...reply.text(SUMMARY), delayMs: 20, wire: { textChunkChars: 40 } };
    }
    const texts = wireMessages(request)
      .filter((m) => m.role === "user")
      .flatMap((m) => m.texts);
    const sub = texts.map((t) => SUBAGENT.exec(t)?.[1]).find((s) => s !== undefined);
    const step = sub ?? texts.map((t) => STEP.exec(t)?.[1]).findLast((s) => s !== undefined);
    if (step !== undefined && sub === undefined) lastStep = step;
    const key = sub !== undefined ? `sub-${sub}` : `main-${step ?? lastStep}`;
    const k = served.get(key) ?? 0;
    served.set(key, k + 1);
    if (sub !== undefined) return k < 2 ? bash(effect("; sleep 0.15")) : reply.text("sub done");
    const ctx = { k, step: step ?? lastStep, request, effect, bash };
    return movesOf(options, ctx) ?? reply.text(`done step ${ctx.step}`);
  };
}

const SUMMARY = `The session so far: ${"a summary of earlier steps, ".repeat(12)}`;

interface MoveContext {
  readonly k: number;
  readonly step: string;
  readonly request: FakeProviderRequest;
  effect(extra?: string): string;
  bash(command: string): ScriptReply;
}

/** The `k`th move of a step for the kind, or undefined once the step is done. */
function movesOf(options: CrashModelOptions, c: MoveContext): ScriptReply | undefined {
  const { k, effect, bash } = c;
  switch (options.kind) {
    case "append":
      if (k === 0 || k === 5) return todos(k === 5);
      return k < 7 ? bash(effect()) : undefined;
    case "stream":
      if (k === 0) return bash(effect());
      if (k === 1) return { ...reply.text(LONG), delayMs: 4, wire: { textChunkChars: 6 } };
      return undefined;
    case "tool":
      return k < 2 ? bash(effect("; sleep 0.4")) : undefined;
    case "checkpoint":
      // Every file changes, so the next turn's checkpoint stores them all again.
      return k === 0
        ? bash(effect(`; for i in $(seq 1 150); do echo ${c.step}.$i > files/f$i.txt; done`))
        : undefined;
    case "compaction":
      // About 4,000 tokens a call, so the 24,000-token window compacts within a step.
      return k < 6 ? bash(effect("; seq 1 3000")) : undefined;
    case "subagent":
      if (k > 0) return undefined;
      return reply.toolCall("Agent", {
        description: "a subagent step",
        prompt: `SUBAGENT step ${c.step}`,
        subagent_type: "general",
      });
    case "mcp":
      // The server connects in the background: wait for its tools, call the slow one once.
      if (k === 0) return bash(effect());
      if (k > 8 || lastCalls(c.request).includes(MCP_TOOL)) return undefined;
      return wireToolNames(c.request).includes(MCP_TOOL)
        ? reply.toolCall(MCP_TOOL, { duration: 0.6, steps: 3 })
        : bash("sleep 0.2");
  }
}

/** The names of the tools the request's last assistant message called. */
function lastCalls(request: FakeProviderRequest): string[] {
  const last = wireMessages(request).findLast((m) => m.role === "assistant");
  return last?.calls.map((call) => call.name) ?? [];
}

const LONG = `Here is a long answer that streams slowly. ${"It goes on and on. ".repeat(40)}`;

function todos(done: boolean): ScriptReply {
  const status = done ? "completed" : "pending";
  return reply.of(
    part.toolCall("TodoWrite", {
      todos: [
        { content: "first thing", status },
        { content: "second thing", status },
      ],
    }),
  );
}
