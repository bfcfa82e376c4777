import type { PermissionMode } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import {
  childMode,
  MAX_AGENT_DEPTH,
  subagentMcpFilter,
  subagentToolNames,
  toolEntryMatches,
} from "./blueprint.js";
import { agentMentionReminder, agentMentions } from "../run/agent-mentions.js";

const PARENT = [
  "Read",
  "Write",
  "Edit",
  "Bash",
  "AskUserQuestion",
  "ExitPlanMode",
  "Agent",
  "ApplyAgentChanges",
  "mcp__jira__get_issue",
  "mcp__jira__create_issue",
  "mcp__github__get_issue",
];

describe("subagentMcpFilter", () => {
  const MCP = [
    "ListMcpResources",
    "ReadMcpResource",
    "LoadMcpTools",
    "mcp__jira__get_issue",
    "mcp__jira__create_issue",
    "mcp__jira2__get_issue",
    "mcp__github__get_issue",
  ];
  const given = (tools: string[] | undefined, disallowedTools: string[] = []) => {
    const filter = subagentMcpFilter({ tools, disallowedTools });
    return filter === null ? null : MCP.filter(filter);
  };

  it("gives none when the definition names no MCP tool", () => {
    expect(given(["Read", "Grep"])).toBeNull();
  });

  it("gives one server's tools for mcp__x__* and mcp__x, one tool for mcp__x__tool", () => {
    const jira = ["LoadMcpTools", "mcp__jira__get_issue", "mcp__jira__create_issue"];
    expect(given(["Read", "mcp__jira__*"])).toEqual(jira);
    expect(given(["mcp__jira"])).toEqual(jira);
    expect(given(["mcp__jira__get_issue"])).toEqual(["LoadMcpTools", "mcp__jira__get_issue"]);
    expect(toolEntryMatches("mcp__jira", "mcp__jira2__get_issue")).toBe(false);
  });

  it("gives all but the disallowed for no list or *; resource tools only by name or all", () => {
    expect(given(undefined)).toEqual(MCP);
    expect(given(undefined, ["mcp__github", "ReadMcpResource"])).toEqual(
      MCP.filter((t) => t !== "mcp__github__get_issue" && t !== "ReadMcpResource"),
    );
    expect(given(["ListMcpResources"])).toEqual(["ListMcpResources"]);
  });
});

describe("subagentToolNames", () => {
  it("gives every tool but the user-facing ones when the definition lists none", () => {
    expect(subagentToolNames(PARENT, { tools: undefined, disallowedTools: [] }, 1)).toEqual(
      PARENT.filter((t) => t !== "AskUserQuestion" && t !== "ExitPlanMode"),
    );
  });

  it("keeps the listed tools, rule-like entries by their tool, MCP wildcards and the Task alias", () => {
    const tools = ["Read", "Bash(git diff:*)", "mcp__jira__*", "Task", "AskUserQuestion"];
    expect(subagentToolNames(PARENT, { tools, disallowedTools: [] }, 1)).toEqual([
      "Read",
      "Bash",
      "Agent",
      "mcp__jira__get_issue",
      "mcp__jira__create_issue",
    ]);
  });

  it("removes disallowed tools, and the agent tools at the depth limit", () => {
    const def = { tools: undefined, disallowedTools: ["Write", "mcp__jira__create*"] };
    const deep = subagentToolNames(PARENT, def, MAX_AGENT_DEPTH);
    expect(deep).toEqual([
      "Read",
      "Edit",
      "Bash",
      "mcp__jira__get_issue",
      "mcp__github__get_issue",
    ]);
    expect(subagentToolNames(PARENT, def, MAX_AGENT_DEPTH - 1)).toContain("Agent");
  });

  it("gives nothing for an empty list", () => {
    expect(subagentToolNames(PARENT, { tools: [], disallowedTools: [] }, 1)).toEqual([]);
  });

  it("matches wildcards literally apart from *", () => {
    expect(toolEntryMatches("mcp__a.b__*", "mcp__aXb__x")).toBe(false);
    expect(toolEntryMatches("*", "Read")).toBe(true);
  });
});

describe("childMode", () => {
  const modes: PermissionMode[] = ["plan", "ask", "acceptEdits", "bypass"];
  it("takes the definition's mode, else the caller's", () => {
    expect(childMode({ permissionMode: "plan" }, "builtin", "acceptEdits", "acceptEdits")).toBe(
      "plan",
    );
    expect(childMode({ permissionMode: undefined }, "user", "acceptEdits", "ask")).toBe(
      "acceptEdits",
    );
    expect(childMode({ permissionMode: "bypass" }, "user", "ask", "ask")).toBe("bypass");
  });

  it("never lets a project agent run looser than its caller", () => {
    for (const caller of modes)
      for (const wanted of modes) {
        const mode = childMode({ permissionMode: wanted }, "project", caller, caller);
        expect(modes.indexOf(mode), `${wanted} under ${caller}`).toBeLessThanOrEqual(
          modes.indexOf(caller),
        );
      }
    expect(childMode({ permissionMode: "plan" }, "project", "ask", "ask")).toBe("plan");
  });

  it("lets a bypass session override every agent's mode", () => {
    expect(childMode({ permissionMode: "plan" }, "project", "plan", "bypass")).toBe("bypass");
  });
});

describe("agentMentions", () => {
  const known = (n: string) => ["reviewer", "explore"].includes(n);
  it("finds known @agent-<name> mentions once each, in order", () => {
    expect(
      agentMentions("Ask @agent-reviewer, then @agent-explore. Also @agent-reviewer again", known),
    ).toEqual(["reviewer", "explore"]);
  });

  it("ignores unknown names and e-mail-like text", () => {
    expect(agentMentions("me@agent-reviewer.com and @agent-nobody", known)).toEqual([]);
  });

  it("builds a reminder naming the subagent_type", () => {
    expect(agentMentionReminder("reviewer", "turn_1")).toEqual({
      key: "agent-mention:turn_1:reviewer",
      text: 'The user asked for the "reviewer" agent: use the Agent tool with subagent_type "reviewer" for this request.',
    });
  });
});
