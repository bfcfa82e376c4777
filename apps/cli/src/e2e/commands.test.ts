import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MCP_TEST_SERVER, reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { main, streamJson, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

describe("usage and bad usage of the binary", () => {
  it("bare zeng without a terminal reads prompts from stdin: none, and it exits 0", async () => {
    w = await world({ format: "anthropic" });
    const child = w.spawn([]);
    child.child.stdin?.end();
    const run = await child.done;
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(w.mainRequests()).toHaveLength(0);
  });

  it("zeng --help prints the usage and exits 0", async () => {
    w = await world({ format: "anthropic" });
    const run = await w.run(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('zeng -p "PROMPT"');
    expect(run.stdout).toContain(
      "Exit codes: 0 completed, 1 failed or budget exhausted, 2 bad usage, 130 cancelled.",
    );
    expect(run.stderr).toBe("");
  });

  it("an unknown flag, a bad value or a missing folder is one line on stderr and exit 2", async () => {
    w = await world({ format: "anthropic" });
    const cases: Array<[string[], string]> = [
      [["--frobnicate"], "zeng: unknown option --frobnicate (see zeng --help)\n"],
      [
        ["-p", "x", "--output-format", "xml"],
        'zeng: --output-format must be one of text, json, stream-json, claude-json, claude-stream-json (got "xml") (see zeng --help)\n',
      ],
      [
        ["-p", "x", "--max-turns", "0"],
        'zeng: --max-turns must be a whole number of at least 1 (got "0") (see zeng --help)\n',
      ],
      [["-p", "x", "--cwd", "/no/such/folder"], "zeng: --cwd /no/such/folder: no such folder\n"],
      [["trust", "/no/such/folder"], "zeng: trust /no/such/folder: no such folder\n"],
    ];
    const runs = await Promise.all(cases.map(([args]) => (w as World).run(args)));
    for (const [i, run] of runs.entries()) {
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(cases[i]?.[1]);
      expect(run.stdout).toBe("");
    }
    expect(w.provider.requests).toHaveLength(0);
  });

  it("a settings problem is a notice, not an exit code", async () => {
    w = await world({ format: "anthropic", userSettings: '[agents]\nmax_turns = "many"\n' });
    w.provider.push(main(reply.text("fine")));
    const run = await w.run(["-p", "hi"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("fine\n");
    expect(run.stderr).toMatch(/zeng: warning: .*settings\.toml.*max_turns/);
  });
});

describe("zeng trust", () => {
  it("trusts the folder, lists what now applies, and later runs no longer withhold it", async () => {
    w = await world({ format: "anthropic" });
    await mkdir(w.repo.path(".z-engine"), { recursive: true });
    await writeFile(
      w.repo.path(".z-engine/settings.toml"),
      '[permissions]\nallow = ["Bash(npm test:*)"]\n',
    );
    await mkdir(w.repo.path(".claude"), { recursive: true });
    await writeFile(w.repo.path(".claude/settings.json"), '{"env":{"NODE_OPTIONS":"-r ./x"}}');
    w.provider.push(main(reply.text("one")), main(reply.text("two")));
    const before = streamJson((await w.run(["-p", "a", "--output-format", "stream-json"])).stdout);
    expect(before.envelopes.map((e) => e.event)).toContainEqual({
      type: "trustRequired",
      projectRoot: w.repo.root,
      withheld: ["permissions.allow", "env"],
    });

    const trust = await w.run(["trust"]);
    expect(trust.code).toBe(0);
    expect(trust.stdout).toBe(
      `Trusted ${w.repo.root}\nIts project settings now apply for: permissions.allow, env\n`,
    );
    const file = JSON.parse(
      await readFile(join(w.env.ZENGINE_HOME as string, "trust.json"), "utf8"),
    );
    expect(file).toMatchObject({ v: 2, folders: [{ path: w.repo.root }] });

    const after = streamJson((await w.run(["-p", "b", "--output-format", "stream-json"])).stdout);
    expect(after.envelopes.some((e) => e.event.type === "trustRequired")).toBe(false);
  });

  it("names the environment variables the project's MCP servers would be handed", async () => {
    w = await world({ format: "anthropic" });
    const mcp = {
      command: "node",
      env: { KEY: "$" + "{ANTHROPIC_API_KEY}", TOKEN: "$" + "{GH_PAT}" },
    };
    await writeFile(w.repo.path(".mcp.json"), JSON.stringify({ mcpServers: { tools: mcp } }));
    const trust = await w.run(["trust"]);
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain(
      `hands its MCP servers these environment variables: tools (${w.repo.path(".mcp.json")}): $` +
        "{ANTHROPIC_API_KEY} (left empty), $" +
        "{GH_PAT}.",
    );
  });
});

describe("zeng mcp list", () => {
  it("starts the configured servers, prints each state with its reason, withholds an untrusted project's", async () => {
    const q = JSON.stringify;
    w = await world({
      format: "anthropic",
      files: {
        "README.md": "# x\n",
        ".mcp.json": JSON.stringify({ mcpServers: { planted: { command: "/no/such/planted" } } }),
      },
      userSettings: [
        "[mcp.servers.test]",
        `command = ${q(process.execPath)}`,
        `args = [${q(MCP_TEST_SERVER)}]`,
        "[mcp.servers.broken]",
        'command = "/no/such/mcp-server"',
        "[mcp.servers.off]",
        'url = "http://127.0.0.1:9/mcp"',
        "enabled = false",
        "",
      ].join("\n"),
    });
    const run = await w.run(["mcp", "list"]);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^test \(stdio\): ready, 19 tools, started in \d+ ms$/);
    expect(lines[1]).toMatch(/^broken \(stdio\): failed: .*(ENOENT|no such)/i);
    expect(lines[2]).toBe("off (http): disabled");
    expect(lines[3]).toBe(
      `The project's own MCP servers start only once ${w.repo.root} is trusted (zeng trust).`,
    );
    expect(run.stdout).not.toContain("planted");
    expect(w.provider.requests).toHaveLength(0);
  }, 60_000);
});

describe("zeng demo", () => {
  it("runs the walkthrough with no key and no network, round by round, ends Verified and cleans up", async () => {
    w = await world({ format: "anthropic" });
    const run = await w.run(["demo"], {
      ZENGINE_API_KEY: undefined,
      ZENGINE_BASE_URL: "http://127.0.0.1:9",
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = run.stdout;
    for (const round of [1, 2, 3, 4, 5]) expect(out).toContain(`\nRound ${round}\n`);
    expect(out).toContain("You: Always allow… › In this chat (adds the rule Bash(npm test:*))");
    expect(out).toContain("You: Allow once");
    expect(out).toContain("check npm:test failed (exit 1; 0 passed, 1 failed)");
    expect(out).toContain("check npm:test passed (exit 0; 1 passed, 0 failed)");
    expect(out).toContain("+  return now >= token.expiresAt;");
    expect(out).toMatch(/\nBadge: Verified: /);
    expect(out.indexOf("Round 5")).toBeLessThan(out.indexOf("Badge: Verified"));
    const project = /Project: (\S+)/.exec(out)?.[1] as string;
    expect(existsSync(project)).toBe(false);
    expect(w.provider.requests).toHaveLength(0);
  });
});
