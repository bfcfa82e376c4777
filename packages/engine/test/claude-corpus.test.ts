import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSettings, readMcpJson, resolvePaths, type SettingsProblem } from "@z-engine/config";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, resultsOf } from "./harness.js";

/**
 * The corpus: real `.claude/` folders and `.mcp.json` files of public repositories (see
 * fixtures/claude-corpus/SOURCES), each loaded as Claude Code loads it. The names expected are
 * worked out here from the files with Claude Code's rules, not with the engine's parsers.
 */
const CORPUS = fileURLToPath(new URL("./fixtures/claude-corpus/", import.meta.url));

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A repository's fixture files, by their path in the repository. */
function repoFiles(repo: string): Record<string, string> {
  const root = join(CORPUS, repo);
  return Object.fromEntries(
    filesUnder(root).map((path) => [
      relative(root, path).split(sep).join("/"),
      readFileSync(path, "utf8"),
    ]),
  );
}

/** A frontmatter field as Claude Code's YAML reads a plain one-line value. */
function field(text: string, key: string): string | undefined {
  const front = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
  const line = new RegExp(`^${key}:[ \\t]*(.*)$`, "m").exec(front)?.[1]?.trim();
  return line?.replace(/^(["'])(.*)\1$/, "$2") || undefined;
}

const base = (path: string) => (path.split("/").at(-1) as string).replace(/\.md$/, "");

/** What Claude Code offers for these files: agent types, slash commands, hooks. */
function expected(files: Record<string, string>) {
  const agents: string[] = [];
  const commands: string[] = [];
  const hooks: Record<string, number> = {};
  for (const [path, text] of Object.entries(files)) {
    if (path.startsWith(".claude/agents/")) agents.push(field(text, "name") ?? base(path));
    else if (path.startsWith(".claude/commands/")) {
      const parts = path.slice(".claude/commands/".length, -".md".length).split("/");
      commands.push(parts.join(":"), parts.at(-1) as string);
    } else if (/^\.claude\/skills\/[^/]+\/SKILL\.md$/.test(path)) {
      const folder = path.split("/")[2] as string;
      const name = field(text, "name");
      // A display name (`Confidence Check`) cannot follow a `/`: the folder's name is used.
      if (field(text, "user-invocable") !== "false")
        commands.push(name && /^[\w.:-]+$/.test(name) ? name : folder);
    } else if (/^\.claude\/settings(\.local)?\.json$/.test(path)) {
      const parsed = JSON.parse(text) as { hooks?: Record<string, Array<{ hooks?: unknown[] }>> };
      for (const [event, groups] of Object.entries(parsed.hooks ?? {}))
        hooks[event] = (hooks[event] ?? 0) + groups.flatMap((g) => g.hooks ?? []).length;
    }
  }
  return { agents, commands, hooks };
}

/** The agent types the session offers, as its Agent tool names them for an unknown type. */
async function offeredAgents(x: Harness): Promise<string[]> {
  x.model.push(
    reply.toolCall("Agent", { description: "d", prompt: "p", subagent_type: "zz-no-such-type" }),
    reply.text("ok"),
  );
  await x.session.run("which agents are there?");
  const text = JSON.stringify(resultsOf(x, 1)[0]?.content);
  const list = /Available: (.*?)\./.exec(text)?.[1] ?? "";
  return list.split(", ");
}

/** Notices about a file of the corpus (a loading problem, not a hook's own output). */
const LOADING = new Set(["session.setup", "command.problem", "settings.problem", "settings.rule"]);

/**
 * What zeng says of what it does not apply, allowed: settings keys, hook events and modes it
 * does not use (once per file), and a skill's display name that its folder's name replaces.
 */
const NOT_USED =
  /zeng does not use|is not run by zeng|has no zeng equivalent|the skill is \/[\w.:-]+, its folder's name/;

/**
 * Files zeng applies only in part, each with why. Claude Code saves an "always allow" answer
 * as an exact-command rule, compound ones included (`grep ... \| ...`, PowerShell pipelines);
 * zeng's rule grammar names one simple command, so such an allow rule is dropped with a
 * notice (those calls ask instead: never looser).
 */
const PARTIAL: Readonly<Record<string, RegExp>> = {
  "IsHereZahin__isherezahin.me":
    /permissions\.allow\.(1|4|9|10)\b.*(a rule names one simple command|PowerShell rules take no specifier)/,
};

const allowed = (repo: string, message: string) =>
  NOT_USED.test(message) || (PARTIAL[repo]?.test(message) ?? false);

const repos = readdirSync(CORPUS).filter((name) => statSync(join(CORPUS, name)).isDirectory());

describe("the .claude corpus", { timeout: 120_000 }, () => {
  it("holds at least 15 public repositories, each file's source noted", () => {
    expect(repos.length).toBeGreaterThanOrEqual(15);
    const sources = readFileSync(join(CORPUS, "SOURCES"), "utf8");
    for (const repo of repos)
      for (const path of Object.keys(repoFiles(repo)))
        expect(sources).toMatch(
          new RegExp(
            `^${repo.replace("__", "/").replaceAll(".", "\\.")} [0-9a-f]{40} ${path.replaceAll(".", "\\.")}$`,
            "m",
          ),
        );
    const noted = sources.split("\n").filter((l) => /^\S+\/\S+ [0-9a-f]{40} \S+$/.test(l));
    expect(noted.length).toBe(repos.reduce((n, r) => n + Object.keys(repoFiles(r)).length, 0));
  });

  it.each(repos)(
    "%s: every agent, command and skill is offered under Claude Code's name",
    async (repo) => {
      const files = repoFiles(repo);
      const want = expected(files);
      h = await harness({ files, script: [], engine: { headless: true } });
      const names = new Set((await h.session.commands()).map((c) => c.name));
      expect(want.commands.filter((n) => !names.has(n))).toEqual([]);
      if (want.agents.length > 0) {
        const offered = new Set(await offeredAgents(h));
        expect(want.agents.filter((n) => !offered.has(n))).toEqual([]);
      }
      const problems = h.recorder
        .ofType("notice")
        .filter((n) => LOADING.has(n.code) && n.message.includes(h?.repo.root as string))
        .filter((n) => !allowed(repo, n.message));
      expect(problems.map((n) => n.message)).toEqual([]);
    },
  );

  it.each(repos)(
    "%s: every hook of the events zeng runs is registered; .mcp.json reads cleanly",
    (repo) => {
      const root = join(CORPUS, repo);
      const env = { HOME: "/nonexistent-home", ZENGINE_CONFIG_HOME: "/nonexistent-config" };
      const loaded = loadSettings({
        env,
        paths: resolvePaths(env),
        projectRoot: root,
        trusted: true,
      });
      const want = expected(repoFiles(repo));
      const hooks = loaded.settings.hooks as Record<string, readonly unknown[]>;
      for (const [event, count] of Object.entries(want.hooks))
        if (event in hooks) expect([event, hooks[event]?.length]).toEqual([event, count]);
      // Only "zeng does not use" notices, one per settings file.
      const mine = loaded.problems.filter((p) => p.file.startsWith(root));
      expect(mine.filter((p) => !allowed(repo, `(${p.key}): ${p.message}`))).toEqual([]);
      const notUsed = mine.filter((p) => NOT_USED.test(p.message));
      expect(new Set(notUsed.map((p) => p.file)).size).toBe(notUsed.length);
      const mcp: SettingsProblem[] = [];
      readMcpJson(join(root, ".mcp.json"), mcp);
      expect(mcp).toEqual([]);
    },
  );
});
