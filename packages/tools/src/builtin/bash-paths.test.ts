import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Action, compileRules, type DecideContext, decide } from "@z-engine/policy";
import type { PermissionMode } from "@z-engine/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testCtx } from "../test-support/ctx.js";
import { bashTool } from "./bash.js";
import { followPath } from "./bash-paths.js";

// Redirections and read-only commands' paths are judged where they really lead (issue 16,
// item 4): the Bash tool's action resolves symlinks, dangling ones too, on the real disk.

let dir: string;
let proj: string;
let outside: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-bash-paths-")));
  proj = join(dir, "proj");
  outside = join(dir, "home");
  await mkdir(join(proj, "src"), { recursive: true });
  await mkdir(join(proj, ".git", "hooks"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, ".bashrc"), "# rc\n");
  await writeFile(join(outside, "secret"), "key\n");
  await writeFile(join(proj, "src", "a.ts"), "x\n");
  await symlink(join(outside, ".bashrc"), join(proj, "report.txt"));
  await symlink(join(outside, "ssh", "authorized_keys"), join(proj, "keys.txt"));
  await symlink("keys.txt", join(proj, "chain.txt"));
  await symlink("../home/secret", join(proj, "notes.md"));
  await symlink(outside, join(proj, "docs"));
  await symlink(".git/hooks/pre-commit", join(proj, "hook.txt"));
  await symlink("loop-b", join(proj, "loop-a"));
  await link(join(outside, ".bashrc"), join(proj, "rc-copy"));
  await symlink("loop-a", join(proj, "loop-b"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const origin = () => ({ source: "settings.toml", root: proj });

async function judge(
  command: string,
  mode: PermissionMode,
  allow: string[],
  deny: string[] = [],
  writableRoots?: string[],
) {
  const ctx = testCtx({ root: proj });
  const actions = (await bashTool.action({ command }, ctx)) as Action[];
  const context: DecideContext = {
    projectRoot: proj,
    additionalDirectories: [],
    homeDir: outside,
    autoAllowReadOnlyBash: true,
    ...(writableRoots ? { sandbox: { autoAllow: true, writableRoots } } : {}),
  };
  const rules = {
    allow: compileRules(allow, origin()).rules,
    ask: [],
    deny: compileRules(deny, origin()).rules,
  };
  return decide({ toolName: "Bash", actions }, mode, rules, context).type;
}

describe("Bash action: real paths of redirections and read paths", () => {
  it("a redirection through a symlink to a file outside asks in acceptEdits", async () => {
    const allow = ["Bash(npm test:*)"];
    expect(await judge("npm test > out.txt", "acceptEdits", allow)).toBe("allow");
    expect(await judge("npm test > report.txt", "acceptEdits", allow)).toBe("ask");
    expect(await judge("npm test >> report.txt", "acceptEdits", allow, [])).toBe("ask");
  });

  it("a dangling symlink (and a chain of them) is followed through its link text", async () => {
    const allow = ["Bash(echo:*)"];
    expect(await judge("echo k > keys.txt", "acceptEdits", allow)).toBe("ask");
    expect(await judge("echo k > chain.txt", "acceptEdits", allow)).toBe("ask");
    const denied = [`Edit(//${outside.slice(1)}/ssh/**)`];
    expect(await judge("echo k > chain.txt", "acceptEdits", allow, denied)).toBe("deny");
  });

  it("a write to a file with other hard links asks: its other names are not known", async () => {
    const allow = ["Bash(echo:*)", "Bash(tee:*)"];
    expect(await judge("echo x > rc-copy", "acceptEdits", allow)).toBe("ask");
    expect(await judge("echo x >> rc-copy", "acceptEdits", allow)).toBe("ask");
    expect(await judge("echo x > out.txt", "acceptEdits", allow)).toBe("allow");
    // The sandbox cannot vouch for it: the inode is shared with a file outside its roots.
    expect(await judge("echo x > rc-copy", "ask", [], [], [proj])).toBe("ask");
    expect(await judge("echo x > out.txt", "ask", [], [], [proj])).toBe("allow");
    expect(await judge("cp src/a.ts rc-copy", "ask", [], [], [proj])).toBe("ask");
    // Write deny rules cannot be checked against names nobody knows.
    expect(await judge("echo x > rc-copy", "acceptEdits", allow, ["Edit(/elsewhere)"])).toBe("ask");
    // Reading one is reading the file itself; bypass allows as for the file tools.
    expect(await judge("cat rc-copy", "ask", [])).toBe("allow");
    expect(await judge("echo x > rc-copy", "bypass", [])).toBe("allow");
  });

  it("a link into .git makes the write a protected one", async () => {
    expect(await judge("echo x > hook.txt", "acceptEdits", ["Bash"])).toBe("ask");
  });

  it("read-only commands reading through links out of the project are not auto-allowed", async () => {
    expect(await judge("cat src/a.ts", "ask", [])).toBe("allow");
    expect(await judge("cat notes.md", "ask", [])).toBe("ask");
    expect(await judge("cat docs/secret", "ask", [])).toBe("ask");
    expect(await judge("cd docs && cat secret", "ask", [])).toBe("ask");
    expect(await judge("cat notes.md", "ask", [], ["Read(~/secret)"])).toBe("deny");
  });

  it("the action carries the resolved paths", async () => {
    const [action] = await bashTool.action(
      { command: "cat notes.md > keys.txt" },
      testCtx({ root: proj }),
    );
    if (action?.kind !== "command") throw new Error("expected a command action");
    expect(action.realPaths?.get(join(proj, "notes.md"))).toBe(join(outside, "secret"));
    expect(action.realPaths?.get(join(proj, "keys.txt"))).toBe(
      join(outside, "ssh", "authorized_keys"),
    );
    const [plain] = await bashTool.action({ command: "cat src/a.ts" }, testCtx({ root: proj }));
    expect(plain?.kind === "command" && plain.realPaths).toBeFalsy();
  });

  it("a loop of links ends without hanging", async () => {
    expect(await followPath(join(proj, "loop-a"))).toMatch(/loop-[ab]$/);
    expect(await judge("echo x > loop-a", "acceptEdits", ["Bash(echo:*)"])).not.toBe("deny");
  });

  it("the approval card shows hidden characters escaped", async () => {
    const ctx = testCtx({ root: proj });
    const preview = await bashTool.preview({ command: "npm test\r#; touch X" }, ctx);
    expect(preview).toMatchObject({ command: "npm test<U+000D>#; touch X" });
    expect(bashTool.title({ command: "ls\u2028x" }, ctx)).toBe("Bash ls<U+2028>x");
  });
});
