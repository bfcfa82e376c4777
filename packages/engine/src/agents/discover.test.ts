import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { testDoors } from "../test-support/doors.js";
import { discoverAgents, MAX_AGENT_FILE_BYTES } from "./discover.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "../../test/fixtures/claude-agents");

const folders: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agents-discover-"));
  folders.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(folders.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

const agent = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nPrompt of ${name}.\n`;

/** What each corpus file gives: the agent it defines (name, tools, model) or the error. */
const CORPUS: Record<string, { name: string; tools?: string[]; model?: string } | RegExp> = {
  "code-reviewer.md": { name: "code-reviewer", tools: ["Read", "Grep", "Glob", "Bash"] },
  "debugger.md": { name: "debugger", model: "sonnet" },
  "engineering/test-runner.md": { name: "test-runner", tools: ["Bash", "Read", "Edit"] },
  "engineering/jira-triage.md": {
    name: "jira-triage",
    tools: ["Read", "Grep", "mcp__jira__*", "mcp__github__get_issue"],
  },
  "data/sql-analyst.md": { name: "sql-analyst", model: "opus" },
  "data/nested/schema-doc.md": { name: "schema-doc" },
  "architect-example-blocks.md": { name: "backend-architect", model: "opus" },
  "multiline-description.md": { name: "security-auditor" },
  "blank-lines-first.md": { name: "blank-lines-first", tools: ["Read"] },
  "no-opening-fence.md": { name: "no-opening-fence", tools: ["Read", "Grep"] },
  "windows-bom.md": { name: "windows-bom", model: "haiku" },
  "bypass-all-tools.md": { name: "migrator" },
  "no-tools.md": { name: "pure-thinker", tools: [] },
  "broken-no-description.md": /has no description/,
  "broken-bad-mode.md": /unknown permission mode "yolo"/,
};

describe("discoverAgents", () => {
  it("loads every file of the corpus or reports it, never throwing", async () => {
    const project = await tempDir();
    const dir = join(project, ".claude", "agents");
    await cp(FIXTURES, dir, { recursive: true });
    const catalog = await discoverAgents({ projectRoot: project, files: testDoors(project) });
    for (const [file, expected] of Object.entries(CORPUS)) {
      const path = join(dir, file);
      if (expected instanceof RegExp) {
        const problem = catalog.problems.find((p) => p.path === path);
        expect(problem?.error, file).toMatch(expected);
        continue;
      }
      const found = catalog.types.get(expected.name);
      expect(found?.path, file).toBe(path);
      expect(found?.source).toBe("project");
      if (expected.tools) expect(found?.definition.tools, file).toEqual(expected.tools);
      if (expected.model) expect(found?.definition.model, file).toBe(expected.model);
      expect(found?.definition.description.length, file).toBeGreaterThan(0);
      expect(found?.definition.prompt.length, file).toBeGreaterThan(0);
    }
    // Two broken files, and README.txt is not an agent file.
    expect(catalog.problems).toHaveLength(2);
  });

  it("reads Claude Code's extra fields from the corpus", async () => {
    const project = await tempDir();
    await cp(FIXTURES, join(project, ".claude", "agents"), { recursive: true });
    const { types } = await discoverAgents({ projectRoot: project, files: testDoors(project) });
    expect(types.get("jira-triage")?.definition).toMatchObject({
      disallowedTools: ["Bash", "Write", "Edit"],
      skills: ["ticket-estimation", "codeowners"],
      model: "claude-3-5-haiku-20241022",
    });
    expect(types.get("test-runner")?.definition).toMatchObject({
      permissionMode: "acceptEdits",
      maxTurns: 25,
    });
    expect(types.get("migrator")?.definition).toMatchObject({
      tools: undefined,
      permissionMode: "bypass",
    });
    expect(types.get("sql-analyst")?.definition.permissionMode).toBe("ask");
    expect(types.get("debugger")?.definition.color).toBe("red");
    // The description keeps its <example> blocks, with real line breaks for literal `\n`.
    expect(types.get("backend-architect")?.definition.description).toContain(
      "<example>\nContext: The user is starting a new service.",
    );
  });

  it("layers project .z-engine > project .claude > user config > ~/.claude > built-ins", async () => {
    const project = await tempDir();
    const config = await tempDir();
    const home = await tempDir();
    await write(join(project, ".z-engine/agents/reviewer.md"), agent("reviewer", "zeng project"));
    await write(join(project, ".claude/agents/reviewer.md"), agent("reviewer", "claude project"));
    await write(join(project, ".claude/agents/explore.md"), agent("explore", "my explore"));
    await write(join(config, "agents/team/helper.md"), agent("helper", "user helper"));
    await write(join(home, ".claude/agents/helper.md"), agent("helper", "claude user"));
    await write(join(home, ".claude/agents/solo.md"), agent("solo", "only here"));
    const { types, problems } = await discoverAgents({
      projectRoot: project,
      userConfigDir: config,
      homeDir: home,
      files: testDoors(project),
    });
    expect(problems).toEqual([]);
    const described = (name: string) => [
      types.get(name)?.definition.description,
      types.get(name)?.source,
    ];
    expect(described("reviewer")).toEqual(["zeng project", "project"]);
    expect(described("explore")).toEqual(["my explore", "project"]);
    expect(described("helper")).toEqual(["user helper", "user"]);
    expect(described("solo")).toEqual(["only here", "user"]);
    for (const name of ["general", "plan", "review", "verify"])
      expect(types.get(name)?.source, name).toBe("builtin");
  });

  it("gives only the built-ins when no folder exists", async () => {
    const project = await tempDir();
    const { types, problems } = await discoverAgents({
      projectRoot: project,
      homeDir: project,
      files: testDoors(project),
    });
    expect([...types.keys()].sort()).toEqual(["explore", "general", "plan", "review", "verify"]);
    expect(problems).toEqual([]);
  });

  it("reports an oversized file, a dangling link and a file that is a folder", async () => {
    const project = await tempDir();
    const dir = join(project, ".z-engine", "agents");
    await write(join(dir, "huge.md"), agent("huge", "x".repeat(MAX_AGENT_FILE_BYTES)));
    await symlink(join(project, "missing.md"), join(dir, "dangling.md"));
    await write(join(dir, "ok.md"), agent("ok", "fine"));
    const { types, problems } = await discoverAgents({
      projectRoot: project,
      files: testDoors(project),
    });
    expect(types.get("ok")?.definition.description).toBe("fine");
    expect(problems.map((p) => [p.path.slice(dir.length + 1), p.error.split(":")[0]])).toEqual([
      ["dangling.md", "cannot be read"],
      ["huge.md", "larger than 256 KiB"],
    ]);
  });
});
