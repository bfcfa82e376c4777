import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";

const ok = (argv: string[]) => {
  const parsed = parseArgs(argv);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.command;
};
const bad = (argv: string[]) => {
  const parsed = parseArgs(argv);
  if (parsed.ok) throw new Error(`accepted ${JSON.stringify(argv)}`);
  return parsed.error;
};

describe("parseArgs", () => {
  it("bare zeng is interactive; --help gives the usage; --version the version", () => {
    expect(ok([])).toEqual({ kind: "interactive", args: { continue: false } });
    expect(ok(["--help"])).toEqual({ kind: "usage" });
    expect(ok(["-h"])).toEqual({ kind: "usage" });
    expect(ok(["--version"])).toEqual({ kind: "version" });
  });

  it("reads -p with every flag, in both --flag value and --flag=value forms", () => {
    expect(
      ok([
        "-p",
        "fix it",
        "--output-format=stream-json",
        "--permission-mode",
        "acceptEdits",
        "--model",
        "m1",
        "--cwd",
        "/tmp",
        "--max-turns=7",
        "--resume",
        "ses_abc.1",
      ]),
    ).toEqual({
      kind: "headless",
      args: {
        prompt: "fix it",
        outputFormat: "stream-json",
        mode: "acceptEdits",
        model: "m1",
        cwd: "/tmp",
        maxTurns: 7,
        resume: "ses_abc.1",
        continue: false,
      },
    });
    expect(ok(["--print=hi", "--continue"])).toEqual({
      kind: "headless",
      args: { prompt: "hi", outputFormat: "text", continue: true },
    });
    expect(ok(["-p=-starts with a dash"])).toMatchObject({
      args: { prompt: "-starts with a dash" },
    });
  });

  it("reads trust [DIR] and demo", () => {
    expect(ok(["trust"])).toEqual({ kind: "trust" });
    expect(ok(["trust", "/srv/app"])).toEqual({ kind: "trust", dir: "/srv/app" });
    expect(ok(["demo"])).toEqual({ kind: "demo" });
    expect(ok(["demo", "--help"])).toEqual({ kind: "usage" });
  });

  it("reads mcp list [--cwd DIR]", () => {
    expect(ok(["mcp", "list"])).toEqual({ kind: "mcpList" });
    expect(ok(["mcp", "list", "--cwd", "/srv/app"])).toEqual({ kind: "mcpList", cwd: "/srv/app" });
    expect(bad(["mcp"])).toBe("zeng mcp needs a command: list, login or logout");
    expect(bad(["mcp", "serve-nothing"])).toBe('unknown mcp command "serve-nothing"');
    expect(bad(["mcp", "login"])).toBe("zeng mcp login needs a server name");
    expect(ok(["mcp", "login", "remote"])).toEqual({ kind: "mcpLogin", server: "remote" });
    expect(ok(["mcp", "add", "x", "npx"])).toEqual({ kind: "mcpEdit", argv: ["add", "x", "npx"] });
    expect(bad(["mcp", "list", "x"])).toBe('unexpected argument "x" after mcp list');
    expect(bad(["mcp", "list", "--model", "m"])).toBe("--model does not apply to `zeng mcp`");
  });

  it("reads mcp login|logout SERVER [--cwd DIR]", () => {
    expect(ok(["mcp", "login", "github"])).toEqual({ kind: "mcpLogin", server: "github" });
    expect(ok(["mcp", "logout", "github", "--cwd", "/srv"])).toEqual({
      kind: "mcpLogout",
      server: "github",
      cwd: "/srv",
    });
    expect(bad(["mcp", "login"])).toBe("zeng mcp login needs a server name");
    expect(bad(["mcp", "logout", "a", "b"])).toBe('unexpected argument "b" after mcp logout a');
  });

  it("rejects unknown flags, bad and missing values, repeats and misplaced flags with one line", () => {
    expect(bad(["--bogus"])).toBe("unknown option --bogus");
    expect(bad(["-x"])).toBe("unknown option -x");
    expect(bad(["-p", "  "])).toBe("-p needs a non-empty value");
    expect(bad(["-p", "x", "--output-format", "yaml"])).toBe(
      '--output-format must be one of text, json, stream-json, claude-json, claude-stream-json (got "yaml")',
    );
    expect(bad(["-p", "x", "--permission-mode", "yolo"])).toContain(
      "--permission-mode must be one of",
    );
    for (const n of ["0", "-1", "1.5", "abc", "99999999999999999999"])
      expect(bad(["-p", "x", `--max-turns=${n}`])).toContain("--max-turns must be a whole number");
    expect(bad(["-p", "x", "--resume", "../../etc"])).toContain("--resume needs a session id");
    expect(bad(["-p", "x", "--resume", "a", "--continue"])).toBe(
      "--resume and --continue cannot be used together",
    );
    expect(bad(["-p", "x", "-p", "y"])).toBe("-p is given twice");
    expect(bad(["--continue=yes", "-p", "x"])).toBe("--continue takes no value");
    expect(bad(["-p", "x", "stray"])).toContain('unexpected argument "stray"');
    expect(bad(["--output-format", "json"])).toBe('--output-format needs -p "PROMPT"');
    expect(bad(["a", "b"])).toBe('unexpected argument "b" (quote the whole prompt)');
    expect(bad(["--resume", "--continue"])).toBe("--resume and --continue cannot be used together");
    expect(bad(["trust", "a", "b"])).toContain('unexpected argument "b"');
    expect(bad(["trust", "--model", "m"])).toBe("--model does not apply to `zeng trust`");
    expect(bad(["demo", "extra"])).toContain('unexpected argument "extra"');
  });

  it("takes an initial prompt, --resume with or without an id, and the session flags interactively", () => {
    expect(ok(["fix the test"])).toEqual({
      kind: "interactive",
      args: { prompt: "fix the test", continue: false },
    });
    expect(ok(["--resume"])).toEqual({
      kind: "interactive",
      args: { resume: true, continue: false },
    });
    expect(ok(["--resume", "--model", "m"])).toEqual({
      kind: "interactive",
      args: { resume: true, model: "m", continue: false },
    });
    expect(ok(["--resume", "ses_1"])).toEqual({
      kind: "interactive",
      args: { resume: "ses_1", continue: false },
    });
    expect(ok(["--continue", "--permission-mode", "plan", "--cwd", "/x"])).toEqual({
      kind: "interactive",
      args: { continue: true, mode: "plan", cwd: "/x" },
    });
    expect(bad(["-p", "x", "--resume"])).toBe("--resume needs a value");
  });

  it("never lets an error message span lines, even for hostile input", () => {
    const error = bad(["-p", "x", "--output-format", "a\nb"]);
    expect(error).not.toContain("\n");
  });
});
