import type { ModelRequest, ToolResultBlock } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { type Harness, resultsOf } from "./harness.js";

// What the worktree agents' scenario tests (issue 38) share: a shell-and-files agent type,
// request predicates, and reading the agent's id from the results.

export const BASHER = "MARKER-BASHER: you edit files for the parent.";
export const systemText = (r: ModelRequest) => r.system.map((s) => s.text).join("\n");
export const sub = (r: ModelRequest) => systemText(r).includes(BASHER);
export const main = (r: ModelRequest) => !sub(r);
export const text = (b: ToolResultBlock | undefined) =>
  (b?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
/** The text of every tool result the model has been sent so far. */
export const allResults = (x: Harness) =>
  x.model.requests.flatMap((_, i) => resultsOf(x, i)).map(text);
export const SANDBOX = "[shell.sandbox]\nenabled = true\nauto_allow = true\n";

export const files = {
  "src/a.ts": "export const a = 1;\n",
  ".claude/agents/basher.md": `---\nname: basher\ndescription: Edits files\ntools: Bash, Write, Read, Verify\n---\n${BASHER}\n`,
};

export const startAgent = (prompt = "do the work") =>
  when(
    main,
    reply.toolCall("Agent", {
      description: "d",
      prompt,
      subagent_type: "basher",
      isolation: "worktree",
    }),
  );
export const agentIdIn = (x: Harness) => {
  const found = allResults(x)
    .map((t) => /\bagent (agent_[0-9a-z]+) \(/.exec(t)?.[1])
    .find((id) => id !== undefined);
  if (!found) throw new Error(`no agent id in ${JSON.stringify(allResults(x))}`);
  return found;
};
