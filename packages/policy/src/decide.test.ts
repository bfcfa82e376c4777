import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PermissionMode } from "@z-engine/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Action } from "./action.js";
import { type RuleOrigin, compileRules } from "./compile.js";
import type { DecideContext } from "./context.js";
import { decide } from "./decide.js";
import { initShellParser, parseCommandSync } from "./shell-parser.js";

const P = "/work/proj";
const HOME = "/home/u";
const ctx: DecideContext = {
  projectRoot: P,
  additionalDirectories: ["/work/extra"],
  homeDir: HOME,
  autoAllowReadOnlyBash: true,
};
const origin: RuleOrigin = { source: "/work/proj/.z-engine/settings.toml", root: P };

function lists(
  spec: { allow?: string[]; ask?: string[]; deny?: string[] },
  o: RuleOrigin = origin,
) {
  return {
    allow: compileRules(spec.allow ?? [], o).rules,
    ask: compileRules(spec.ask ?? [], o).rules,
    deny: compileRules(spec.deny ?? [], o).rules,
  };
}
const read = (...paths: string[]): Action => ({ kind: "read", paths });
const write = (...paths: string[]): Action => ({ kind: "write", paths });
const cmd = (text: string, cwd = P): Action => ({
  kind: "command",
  command: parseCommandSync(text),
  cwd,
});
function one(
  action: Action,
  spec: Parameters<typeof lists>[0] = {},
  mode: PermissionMode = "ask",
  c = ctx,
) {
  return decide({ toolName: "Tool", actions: [action] }, mode, lists(spec), c);
}

await initShellParser();

describe("path rules", () => {
  it("keeps relative and /path rules inside their project", () => {
    expect(one(write("/tmp/x"), { allow: ["Edit(**)"] }).type).toBe("ask");
    expect(one(write(`${P}/a/b`), { allow: ["Edit(**)"] }).type).toBe("allow");
    expect(one(write("/work/proj-other/src/a"), { allow: ["Edit(/src/**)"] }).type).toBe("ask");
    expect(one(write("/work/extra/src/a"), { allow: ["Edit(/src/**)"] }).type).toBe("ask");
  });
  it("starts /path rules from the settings file's project, not the session's", () => {
    const other = lists(
      { allow: ["Edit(/src/**)"] },
      { source: "/other/.z-engine/settings.toml", root: "/other" },
    );
    const call = (p: string) =>
      decide({ toolName: "Edit", actions: [write(p)] }, "ask", other, ctx).type;
    expect(call("/other/src/a.ts")).toBe("allow");
    expect(call(`${P}/src/a.ts`)).toBe("ask");
  });
  it("reads //absolute and ~/home rules", () => {
    expect(one(read(`${HOME}/.ssh/id_rsa`), { deny: ["Read(~/.ssh/**)"] }).type).toBe("deny");
    expect(one(read(`${HOME}/.sshx/id`), { deny: ["Read(~/.ssh/**)"] }).type).toBe("ask");
    expect(one(read("/etc/passwd"), { deny: ["Read(//etc/passwd)"] }).type).toBe("deny");
    expect(one(read("/etc/passwd.d/x"), { deny: ["Read(//etc/passwd)"] }).type).toBe("ask");
  });
  it("lets a slash-free relative glob match at any depth of the project, as gitignore does", () => {
    expect(one(read(`${P}/.env`), { deny: ["Read(*.env)"] }).type).toBe("deny");
    expect(one(read(`${P}/a/b/prod.env`), { deny: ["Read(*.env)"] }).type).toBe("deny");
    expect(one(read(`${P}/a/b/prod.envx`), { deny: ["Read(*.env)"] }).type).toBe("allow");
    expect(one(read("/elsewhere/prod.env"), { deny: ["Read(*.env)"] }).type).toBe("ask");
    expect(one(read(`${P}/a/secrets/k`), { deny: ["Read(./secrets/**)"] }).type).toBe("allow");
    expect(one(read(`${P}/secrets/k`), { deny: ["Read(./secrets/**)"] }).type).toBe("deny");
  });
  it("compares paths case-sensitively, as Linux does", () => {
    expect(one(write(`${P}/SRC/a.ts`), { allow: ["Edit(/src/**)"] }).type).toBe("ask");
    expect(one(read("/ETC/passwd"), { deny: ["Read(//etc/**)"] }).type).toBe("ask");
  });
  it("folds ../ left in a path before matching", () => {
    expect(one(write(`${P}/src/../../../etc/x`), { allow: ["Edit(/src/**)"] }).type).toBe("ask");
    expect(one(write(`${P}/src/../../../etc/x`), { deny: ["Edit(//etc/**)"] }).type).toBe("deny");
    expect(one(read(`${P}/./src//a.ts`), { deny: ["Read(/src/a.ts)"] }).type).toBe("deny");
  });
  it("asks for a relative path it cannot place", () => {
    expect(one(read("src/a.ts")).type).toBe("ask");
  });
  it("treats additional directories like the project, but not look-alike prefixes", () => {
    expect(one(read("/work/extra/notes.md")).type).toBe("allow");
    expect(one(write("/work/extra/notes.md"), {}, "acceptEdits").type).toBe("allow");
    expect(one(read("/work/extra-evil/x")).type).toBe("ask");
    expect(one(write("/work/projx/a"), {}, "acceptEdits").type).toBe("ask");
  });
  it("needs every path of a multi-path action to be allowed, and denies on any", () => {
    expect(one(read(`${P}/a`, "/etc/hosts")).type).toBe("ask");
    expect(one(read(`${P}/a`, "/etc/hosts"), { allow: ["Read(//etc/**)"] }).type).toBe("allow");
    expect(one(read(`${P}/a`, `${P}/.env`), { deny: ["Read(.env)"] }).type).toBe("deny");
  });
});

describe("symlinks: the caller resolves them, and the decision follows the real path", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "zeng-policy-"));
    await mkdir(join(dir, "proj"));
    await mkdir(join(dir, "secret"));
    await writeFile(join(dir, "secret", "key"), "k");
    await symlink(join(dir, "secret"), join(dir, "proj", "link"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  it("asks for a read through a link that leaves the project, and denies it under a deny rule", async () => {
    const root = await realpath(join(dir, "proj"));
    const real = await realpath(join(dir, "proj", "link", "key"));
    const c = { ...ctx, projectRoot: root };
    const rules = lists({ deny: [`Read(/${await realpath(join(dir, "secret"))}/**)`] });
    expect(decide({ toolName: "Read", actions: [read(real)] }, "ask", lists({}), c).type).toBe(
      "ask",
    );
    expect(decide({ toolName: "Read", actions: [read(real)] }, "bypass", rules, c).type).toBe(
      "deny",
    );
  });
});

describe("bare tool rules", () => {
  it("match every action of their family, whatever the tool", () => {
    const d = decide(
      { toolName: "Verify", actions: [cmd("cargo test")] },
      "bypass",
      lists({ deny: ["Bash"] }),
      ctx,
    );
    expect(d.type).toBe("deny");
    expect(one(read(`${P}/a`), { deny: ["Read"] }).type).toBe("deny");
    expect(one(write("/tmp/a"), { allow: ["Write"] }).type).toBe("allow");
    expect(
      one({ kind: "network", url: "https://a.b/", domain: "a.b" }, { allow: ["WebFetch"] }).type,
    ).toBe("allow");
  });
  it("match every action of a call to the named tool", () => {
    const search = { toolName: "WebSearch", actions: [{ kind: "none" } as Action] };
    expect(decide(search, "bypass", lists({ deny: ["WebSearch"] }), ctx).type).toBe("deny");
    const verify = { toolName: "Verify", actions: [cmd("npm test"), cmd("cargo test")] };
    expect(decide(verify, "ask", lists({ allow: ["Verify"] }), ctx).type).toBe("allow");
  });
});

describe("network, MCP and agents", () => {
  const net = (domain: string): Action => ({ kind: "network", url: `https://${domain}/x`, domain });
  it("matches domains case-insensitively, exactly or by *. wildcard", () => {
    expect(one(net("EVIL.com"), { deny: ["WebFetch(domain:evil.com)"] }).type).toBe("deny");
    expect(one(net("api.example.com"), { allow: ["WebFetch(domain:*.example.com)"] }).type).toBe(
      "allow",
    );
    expect(one(net("example.com"), { allow: ["WebFetch(domain:*.example.com)"] }).type).toBe("ask");
    expect(one(net("notexample.com"), { allow: ["WebFetch(domain:*.example.com)"] }).type).toBe(
      "ask",
    );
    expect(one(net("example.com.evil.io"), { allow: ["WebFetch(domain:example.com)"] }).type).toBe(
      "ask",
    );
  });
  it("matches MCP servers and tools exactly", () => {
    const mcp = (server: string, tool: string): Action => ({ kind: "mcp", server, tool });
    expect(one(mcp("gh", "create_issue"), { allow: ["mcp__gh__create_issue"] }).type).toBe("allow");
    expect(one(mcp("gh", "delete_repo"), { allow: ["mcp__gh__create_issue"] }).type).toBe("ask");
    expect(one(mcp("gh", "delete_repo"), { deny: ["mcp__gh__*"] }).type).toBe("deny");
    expect(one(mcp("GH", "x"), { deny: ["mcp__gh"] }).type).toBe("ask");
  });
  it("matches agent types", () => {
    expect(one({ kind: "agent", agentType: "general" }, { deny: ["Task(general)"] }).type).toBe(
      "deny",
    );
    expect(one({ kind: "agent", agentType: "Explore" }, { deny: ["Task(general)"] }).type).toBe(
      "allow",
    );
  });
  it("matches skills by name", () => {
    const skill = (name: string) => ({ kind: "skill" as const, name });
    expect(one(skill("pdf"), { deny: ["Skill(pdf)"] }).type).toBe("deny");
    expect(one(skill("docx"), { deny: ["Skill(pdf)"] }).type).toBe("allow");
    expect(one(skill("docx"), { ask: ["Skill(docx)"] }).type).toBe("ask");
  });
});

describe("several actions in one call", () => {
  it("combines deny > ask > allow and merges suggestions", () => {
    const verify = { toolName: "Verify", actions: [cmd("npm test"), cmd("cargo test --all")] };
    const d = decide(verify, "ask", lists({ allow: ["Bash(npm test:*)"] }), ctx);
    expect(d).toMatchObject({ type: "ask", suggestedRules: ["Bash(cargo test:*)"] });
    const both = decide(
      { toolName: "Verify", actions: [cmd("make"), cmd("go test ./...")] },
      "ask",
      lists({}),
      ctx,
    );
    expect(both).toMatchObject({
      type: "ask",
      suggestedRules: ["Bash(make:*)", "Bash(go test:*)"],
    });
    const mixed = [read(`${P}/a`), write("/tmp/x"), cmd("rm x")];
    expect(
      decide({ toolName: "T", actions: mixed }, "ask", lists({ deny: ["Bash(rm:*)"] }), ctx).type,
    ).toBe("deny");
    expect(decide({ toolName: "T", actions: [] }, "plan", lists({}), ctx).type).toBe("allow");
  });
});

describe("suggested rules", () => {
  it.each([
    [cmd("npm test --watch"), ["Bash(npm test:*)"]],
    [cmd("git push origin main"), ["Bash(git push:*)"]],
    [cmd("ls -la /etc"), ["Bash(ls:*)"]],
    [cmd("python script.py && ./build.sh x"), ["Bash(python:*)", "Bash(./build.sh:*)"]],
    [cmd("timeout 60 cargo build"), ["Bash(cargo build:*)"]],
    [cmd("FOO=1 make"), []],
    [write("/tmp/x/y.txt"), ["Edit(//tmp/x/**)"]],
    [write(`${P}/src/a.ts`), ["Edit(/src/**)"]],
    [write(`${P}/a.ts`), ["Edit(/**)"]],
    [read("/etc/hosts"), ["Read(//etc/**)"]],
    [
      { kind: "network", url: "https://Docs.rs/x", domain: "Docs.rs" } as Action,
      ["WebFetch(domain:docs.rs)"],
    ],
    [{ kind: "mcp", server: "gh", tool: "create_issue" } as Action, ["mcp__gh__create_issue"]],
  ])("%# suggests %j", (action, expected) => {
    const d = one(action);
    expect(d.type).toBe("ask");
    if (d.type === "ask") expect(d.suggestedRules).toEqual(expected);
  });
  it("suggests nothing when an ask rule caused the ask", () => {
    const d = one(cmd("npm publish"), { ask: ["Bash(npm publish)"] });
    expect(d).toMatchObject({ type: "ask", suggestedRules: [] });
  });
  it("suggests rules that parse and then allow the same call", () => {
    for (const action of [cmd("npm run build"), write("/tmp/q/z"), read("/opt/a/b")]) {
      const d = one(action);
      if (d.type !== "ask") throw new Error("expected ask");
      const again = one(action, { allow: [...d.suggestedRules] });
      expect(again.type).toBe("allow");
    }
  });
});

describe("plan mode", () => {
  it("denies anything not read-only with a reason pointing at ExitPlanMode, over allow rules", () => {
    for (const action of [
      cmd("npm test"),
      write(`${P}/a`),
      cmd("ls > out.txt"),
      cmd('echo "bad'),
    ]) {
      const d = one(action, { allow: ["Bash", "Edit"] }, "plan");
      expect(d.type).toBe("deny");
      if (d.type === "deny") expect(d.reason).toContain("ExitPlanMode");
    }
  });
  it("still asks for read-only actions it cannot allow", () => {
    expect(one(cmd("cat /etc/hosts"), {}, "plan").type).toBe("ask");
    expect(one(read("/etc/hosts"), {}, "plan").type).toBe("ask");
    expect(one(cmd("git log -5"), {}, "plan").type).toBe("allow");
  });
});

describe("sandbox auto-allow", () => {
  const sandboxed: DecideContext = {
    ...ctx,
    sandbox: { autoAllow: true, writableRoots: [P, "/tmp"] },
  };
  const run = (
    text: string,
    spec: Parameters<typeof lists>[0] = {},
    mode: PermissionMode = "ask",
    c = sandboxed,
  ) => decide({ toolName: "Bash", actions: [cmd(text)] }, mode, lists(spec), c).type;
  it("allows a command that would ask when its named writes stay in the writable areas", () => {
    expect(run("npm install")).toBe("allow");
    expect(run("make > build.log 2>&1")).toBe("allow");
    expect(run("tee /tmp/out.txt < in")).toBe("allow");
    expect(run("cp a.txt b.txt && mkdir -p dist")).toBe("allow");
  });
  it("asks when a named write leaves the writable areas or cannot be placed", () => {
    expect(run("npm test > /etc/x")).toBe("ask");
    expect(run("rm -rf ~/x")).toBe("ask");
    expect(run("cp a ../outside/b")).toBe("ask");
    expect(run("echo x > $OUT")).toBe("ask");
    expect(run("dd if=/dev/zero of=/dev/sda")).toBe("ask");
  });
  it("never beats deny rules, ask rules or plan mode, and is off without auto_allow", () => {
    expect(run("npm install", { deny: ["Bash(npm install:*)"] })).toBe("deny");
    expect(run("npm install", { ask: ["Bash(npm:*)"] })).toBe("ask");
    expect(run("npm install", {}, "plan")).toBe("deny");
    expect(
      run("npm install", {}, "ask", { ...ctx, sandbox: { autoAllow: false, writableRoots: [P] } }),
    ).toBe("ask");
    expect(run('echo "unclosed')).toBe("ask");
  });
});

describe("decide() with contexts and rule lists built per call", () => {
  it("decides each context by its own folders, whichever came last", () => {
    const other: DecideContext = { ...ctx, projectRoot: "/elsewhere" };
    const rules = { allow: [], ask: [], deny: [] };
    const writeIn = (root: DecideContext) =>
      decide({ toolName: "Write", actions: [write("/work/proj/a.ts")] }, "acceptEdits", rules, root)
        .type;
    expect([writeIn(ctx), writeIn(other), writeIn(ctx), writeIn({ ...ctx })]).toEqual([
      "allow",
      "ask",
      "allow",
      "allow",
    ]);
  });

  it("indexes fresh rule lists, empty or not, like the same lists kept", () => {
    const allowed = lists({ allow: ["mcp__github"] }).allow;
    const mcp: Action = { kind: "mcp", server: "github", tool: "x" };
    const call = { toolName: "mcp__github__x", actions: [mcp] };
    const fresh = () => decide(call, "ask", { allow: [...allowed], ask: [], deny: [] }, ctx);
    expect(fresh().type).toBe("allow");
    expect(decide(call, "ask", { allow: [], ask: [], deny: [] }, ctx).type).toBe("ask");
    expect(fresh().type).toBe("allow");
  });
});
