import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { splitRules } from "./args-dialect.js";

const headless = (argv: string[]) => {
  const parsed = parseArgs(argv);
  if (!parsed.ok) throw new Error(parsed.error);
  if (parsed.command.kind !== "headless") throw new Error(`not headless: ${parsed.command.kind}`);
  return parsed.command.args;
};
const bad = (argv: string[]) => {
  const parsed = parseArgs(argv);
  if (parsed.ok) throw new Error(`accepted ${JSON.stringify(argv)}`);
  return parsed.error;
};

describe("claude -p's flags", () => {
  it("takes the prompt after -p, as a positional after boolean -p, or from stdin", () => {
    expect(headless(["-p", "hi"]).prompt).toBe("hi");
    expect(headless(["-p", "--output-format", "json", "hi"]).prompt).toBe("hi");
    expect(headless(["--verbose", "-p"]).prompt).toBeUndefined();
    expect(headless(["-p", "--model", "m"])).toMatchObject({ model: "m" });
    expect(bad(["-p", "a", "b"])).toContain('unexpected argument "b"');
  });

  it("reads tool rules comma or space separated, keeping parentheses whole, over several words", () => {
    expect(splitRules(["Bash(git log:*) Read,Edit", "Write"])).toEqual([
      "Bash(git log:*)",
      "Read",
      "Edit",
      "Write",
    ]);
    const args = headless([
      "-p",
      "x",
      "--allowedTools",
      "Bash(npm test:*)",
      "Read",
      "--disallowedTools=WebFetch",
      "--allowedTools",
      "Edit",
    ]);
    expect(args.allowedTools).toEqual(["Bash(npm test:*)", "Read", "Edit"]);
    expect(args.disallowedTools).toEqual(["WebFetch"]);
    expect(headless(["-p", "x", "--allowed-tools", "Glob"]).allowedTools).toEqual(["Glob"]);
  });

  it("maps Claude Code's mode names and --dangerously-skip-permissions onto zeng's modes", () => {
    expect(headless(["-p", "x", "--permission-mode", "default"]).mode).toBe("ask");
    expect(headless(["-p", "x", "--permission-mode", "bypassPermissions"]).mode).toBe("bypass");
    expect(headless(["-p", "x", "--permission-mode", "dontAsk"]).mode).toBe("ask");
    expect(headless(["-p", "x", "--dangerously-skip-permissions"]).mode).toBe("bypass");
    expect(
      bad(["-p", "x", "--dangerously-skip-permissions", "--permission-mode", "plan"]),
    ).toContain("disagree");
    expect(bad(["--permission-mode", "dontAsk"])).toContain("applies to -p only");
  });

  it("reads -c, -r ID, the prompt flags, budgets and the output switches", () => {
    expect(headless(["-c", "-p", "x"]).continue).toBe(true);
    expect(headless(["-r", "ses_1", "-p", "x"]).resume).toBe("ses_1");
    expect(headless(["-r", "ses_1", "--fork-session", "-p", "x"]).forkSession).toBe(true);
    expect(
      headless(["-p", "x", "--session-id", "0F8B2C9E-4D1A-4B7E-9C3F-2A6D8E1B5C70"]).sessionId,
    ).toBe("0f8b2c9e-4d1a-4b7e-9c3f-2a6d8e1b5c70");
    const args = headless([
      "-p",
      "x",
      "--system-prompt",
      "You are terse.",
      "--append-system-prompt-file",
      "extra.md",
      "--add-dir",
      "../lib",
      "../docs",
      "--mcp-config",
      "a.json",
      "--strict-mcp-config",
      "--max-budget-usd",
      "0.5",
      "--fallback-model",
      "m2",
      "--json-schema",
      '{"type":"object"}',
      "--output-format",
      "stream-json",
      "--verbose",
      "--include-partial-messages",
    ]);
    expect(args).toMatchObject({
      systemPrompt: { text: "You are terse." },
      appendSystemPrompt: { file: "extra.md" },
      addDirs: ["../lib", "../docs"],
      mcpConfigs: ["a.json"],
      strictMcpConfig: true,
      maxBudgetUsd: 0.5,
      fallbackModel: "m2",
      jsonSchema: '{"type":"object"}',
      outputFormat: "claude-stream-json",
      verbose: true,
      includePartialMessages: true,
    });
  });

  it("writes Claude Code's shapes with a Claude-only flag or a claude- format, zeng's otherwise", () => {
    expect(headless(["-p", "x", "--output-format", "json"]).outputFormat).toBe("json");
    expect(headless(["-p", "x", "--output-format", "json", "--verbose"]).outputFormat).toBe(
      "claude-json",
    );
    expect(headless(["-p", "x", "--output-format", "claude-stream-json"]).outputFormat).toBe(
      "claude-stream-json",
    );
    expect(headless(["-p", "x", "--verbose"]).outputFormat).toBe("text");
  });

  it("rejects what it cannot do with one line", () => {
    expect(bad(["-p", "x", "--max-budget-usd", "free"])).toContain("--max-budget-usd must be");
    expect(bad(["-p", "x", "--strict-mcp-config"])).toBe("--strict-mcp-config needs --mcp-config");
    expect(bad(["-p", "x", "--system-prompt", "a", "--system-prompt-file", "b"])).toContain(
      "cannot be used together",
    );
    expect(bad(["-p", "x", "--input-format", "stream-json"])).toContain(
      "reads the prompt from stdin",
    );
    expect(bad(["-p", "x", "--session-id", "abc"])).toBe('--session-id needs a UUID (got "abc")');
    expect(bad(["-p", "x", "-c", "--session-id", "0F8B2C9E-4D1A-4B7E-9C3F-2A6D8E1B5C70"])).toBe(
      "--session-id names a new session: with --resume or --continue it needs --fork-session",
    );
    expect(bad(["-p", "x", "--fork-session"])).toBe(
      "--fork-session needs --resume ID or --continue",
    );
    expect(bad(["--fork-session", "-c"])).toBe("--fork-session applies to -p only");
    expect(bad(["--allowedTools", "Read"])).toBe("--allowedTools applies to -p only");
    expect(bad(["-p", "x", "--allowedTools"])).toBe("--allowedTools needs a value");
  });
});
