import { execFile } from "node:child_process";
import { link, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_MAP_HEADER } from "@z-engine/context";
import type { ModelRequest } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { decisionModel } from "../decision-model.js";
import { everythingSent, noticeText } from "../model-saw.js";
import { type Harness, type HarnessOptions, harness, resultsOf } from "../harness.js";

// Issue 38: the repo map (items 8, 9, 12), the ask_user documents (23) and hard links (25).
const exec = promisify(execFile);
const SECRET = "SECRET-MAP-MARKER";
const MAP_START = `<system-reminder>\n${REPO_MAP_HEADER}`;

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** The last repo map a request's user messages carry. */
function mapOf(request: ModelRequest | undefined): string | undefined {
  const maps = (request?.messages ?? []).flatMap((m) =>
    m.role !== "user"
      ? []
      : m.content.flatMap((b) =>
          b.type === "text" && b.text.startsWith(MAP_START) ? [b.text] : [],
        ),
  );
  return maps.at(-1);
}

const visible = "export function visibleThing(): number {\n  return 1;\n}\n";

async function withMap(options: Partial<HarnessOptions> & Pick<HarnessOptions, "prepare">) {
  h = await harness({
    files: { "src/ok.ts": visible },
    script: [],
    repoMap: true,
    ...options,
  });
  return h;
}

describe("the repo map through the door", { timeout: 90_000 }, () => {
  it("skips a committed symlink out of the project, with a notice (item 8)", async () => {
    const x = await withMap({
      prepare: async (repo, home) => {
        await writeFile(join(home, "keys.ts"), `export const leakedKey = "${SECRET}";\n`);
        await symlink(join(home, "keys.ts"), repo.path("src/keys.ts"));
        await symlink("ok.ts", repo.path("src/alias.ts"));
        await repo.commit("links");
      },
    });
    const idle = await x.session.repoMapIdle();
    x.model.push(reply.text("ok"));
    await x.session.run("hello");
    const map = mapOf(x.model.requests[0]);
    expect(map).toContain("visibleThing");
    expect(everythingSent(x)).not.toContain(SECRET);
    expect(everythingSent(x)).not.toContain("leakedKey");
    expect(idle).toMatchObject({ state: "ready", indexed: 1 });
    expect(noticeText(x)).toMatch(
      /the repo map left out 1 file it may not read: .*src\/keys\.ts leads to .*outside the project/,
    );
  });

  it("leaves out what Read rules deny, and again after a settings reload (item 9)", async () => {
    const x = await withMap({
      files: {
        "src/ok.ts": visible,
        "secrets/config.ts": `export const apiToken = "${SECRET}";\n`,
        "lib/late.ts": "export function lateThing(): string {\n  return 'late';\n}\n",
        ".z-engine/settings.toml": '[permissions]\ndeny = ["Read(./secrets/**)"]\n',
      },
      prepare: async () => {},
    });
    await x.session.repoMapIdle();
    x.model.push(reply.text("ok"), reply.text("again"));
    await x.session.run("hello");
    const first = mapOf(x.model.requests[0]);
    expect(first).toContain("lateThing");
    expect(first).not.toContain("apiToken");
    // A new deny rule, then a reload (trusting the folder re-reads the settings): the rebuilt
    // map leaves lib/ out too.
    await x.repo.write(
      ".z-engine/settings.toml",
      '[permissions]\ndeny = ["Read(./secrets/**)", "Read(./lib/**)"]\n',
    );
    x.session.send({ type: "trustWorkspace", trusted: true });
    await x.session.idle();
    await x.session.repoMapIdle();
    await x.session.run("again");
    const second = mapOf(x.model.requests[1]);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(second).toContain("visibleThing");
    expect(second).not.toContain("lateThing");
    expect(everythingSent(x)).not.toContain(SECRET);
  });

  it("never blocks on a link to a FIFO or reads a link to /dev/zero (item 12)", async () => {
    const x = await withMap({
      prepare: async (repo) => {
        await exec("mkfifo", [repo.path("fifo")]);
        await symlink("../fifo", repo.path("src/pipe.ts"));
        await symlink("/dev/zero", repo.path("src/zero.ts"));
      },
    });
    const status = await x.session.repoMapIdle();
    expect(status).toMatchObject({ state: "ready", indexed: 1 });
    x.model.push(reply.text("ok"));
    const summary = await x.session.run("hello");
    expect(summary.outcome).toBe("completed");
    expect(mapOf(x.model.requests[0])).toContain("visibleThing");
    expect(noticeText(x)).toContain("not a regular file");
  });
});

describe("ask_user's documents (item 23)", { timeout: 90_000 }, () => {
  const QUESTION = "Which package manager should I use?";
  const ask = {
    name: "AskUserQuestion",
    input: {
      questions: [
        {
          question: QUESTION,
          options: [{ label: "pnpm" }, { label: "npm" }],
          multiSelect: false,
        },
      ],
    },
  };

  /** A session whose fast model answers every decision question eagerly (ask_user: from the docs). */
  async function askSession(trusted: boolean, questions: string[]): Promise<Harness> {
    const fast = decisionModel("eager");
    h = await harness({
      files: { "README.md": "# Here\n\nUse pnpm for every package command; never npm.\n" },
      script: [reply.toolCalls([ask]), reply.text("done")],
      userSettings: '[experimental]\ndecisions_ask_user = "on"\n',
      answer: (q) => {
        questions.push(...q.questions.map((x) => x.question));
        return Object.fromEntries(q.questions.map((x) => [x.question, "npm"]));
      },
      trusted,
      fastClient: fast,
    });
    await h.session.run("set it up");
    return h;
  }

  it("an untrusted project's README does not answer for the user; a trusted one's does", async () => {
    const questions: string[] = [];
    const x = await askSession(false, questions);
    expect(questions).toEqual([QUESTION]);
    const [result] = resultsOf(x, 1);
    expect(JSON.stringify(result?.content)).toContain("npm");
    expect(JSON.stringify(result?.content)).not.toContain("The user was not asked");
    await x.dispose();
    h = undefined;
    const trustedQuestions: string[] = [];
    const y = await askSession(true, trustedQuestions);
    expect(trustedQuestions).toEqual([]);
    expect(JSON.stringify(resultsOf(y, 1)[0]?.content)).toContain("The user was not asked");
  });
});

describe("hard links (item 25)", { timeout: 90_000 }, () => {
  it("Read of a hard link to a denied file asks, and Grep leaves it out", async () => {
    const asked: string[] = [];
    const x = await withMap({
      repoMap: false,
      userSettings: '[permissions]\ndeny = ["Read(~/.ssh/**)"]\n',
      approve: (request) => {
        asked.push(request.title);
        return { type: "deny" };
      },
      prepare: async (repo, home) => {
        await mkdir(join(home, ".ssh"), { recursive: true });
        await writeFile(join(home, ".ssh", "id_rsa"), `${SECRET} private key\n`);
        await link(join(home, ".ssh", "id_rsa"), repo.path("src/notes.txt"));
      },
    });
    x.model.push(
      reply.toolCalls([
        { name: "Read", input: { file_path: x.repo.path("src/notes.txt") } },
        { name: "Grep", input: { pattern: "SECRET", output_mode: "content" } },
      ]),
      reply.text("done"),
    );
    await x.session.run("look");
    expect(asked).toEqual(["Read src/notes.txt"]);
    const [read, grep] = resultsOf(x, 1);
    expect(read?.isError).toBe(true);
    expect(JSON.stringify(grep?.content)).toContain("other hard links");
    expect(everythingSent(x)).not.toContain(`${SECRET} private key`);
  });
});
