import { describe, expect, it } from "vitest";
import { createSdkMcpServer } from "./sdk-tools.js";
import { sessionSetup } from "./session-setup.js";

describe("sessionSetup", () => {
  it("maps the options onto settings and session overrides", () => {
    const warnings: string[] = [];
    const setup = sessionSetup(
      {
        allowedTools: ["Read", "Bash(git status)"],
        disallowedTools: ["WebFetch"],
        additionalDirectories: ["/srv/shared"],
        fallbackModel: "claude-haiku-4-5",
        maxBudgetUsd: 0.25,
        maxTurns: 4,
        model: "claude-sonnet-4-5",
        permissionMode: "plan",
        systemPrompt: { type: "preset", preset: "claude_code", append: "Be brief." },
        mcpServers: {
          calc: createSdkMcpServer({ name: "calc" }),
          web: { type: "http", url: "https://mcp.example.com/mcp", headers: { a: "b" } },
          files: { command: "npx", args: ["server"] },
        },
        settingSources: ["project"],
      },
      (m) => warnings.push(m),
    );
    expect(setup.settings).toEqual({
      permissions: {
        allow: ["Read", "Bash(git status)"],
        deny: ["WebFetch"],
        additional_directories: ["/srv/shared"],
      },
      model: { fallbacks: ["claude-haiku-4-5"] },
      mcp: {
        servers: {
          web: { url: "https://mcp.example.com/mcp", headers: { a: "b" } },
          files: { command: "npx", args: ["server"] },
        },
      },
    });
    expect(setup.overrides).toEqual({
      appendSystemPrompt: "Be brief.",
      mode: "plan",
      model: "claude-sonnet-4-5",
      maxTurns: 4,
      maxBudgetUsd: 0.25,
    });
    expect(setup.sdkServers).toEqual(["calc"]);
    expect(warnings).toEqual([expect.stringContaining("settingSources")]);
  });

  it("gives no settings the host did not ask for (the user's own lists stay)", () => {
    expect(sessionSetup({}, () => {}).settings).toEqual({});
  });

  it("strictMcpConfig makes the servers exactly the host's; an unknown mode throws", () => {
    const setup = sessionSetup(
      { strictMcpConfig: true, mcpServers: { legacy: { type: "sse", url: "https://x/sse" } } },
      () => {},
    );
    expect(setup.overrides.mcpServers).toEqual({ legacy: { type: "sse", url: "https://x/sse" } });
    expect(() => sessionSetup({ permissionMode: "auto" as never }, () => {})).toThrow(TypeError);
  });
});
