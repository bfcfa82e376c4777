import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { CHECKPOINT_REF } from "@z-engine/host";
import type { MessageId, ModelClient, RewindRestore } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, loginFix, loginProject } from "../harness.js";

const run = promisify(execFile);

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const NINE_MIB = 9 * 1024 * 1024;

const files = {
  ...loginProject,
  "notes.txt": "original notes\n",
  "README.md": "# login demo\n",
};

function current(): Harness {
  if (!h) throw new Error("no harness");
  return h;
}

/** The user message id of the n-th turn (0-based). */
function userMessage(n: number): MessageId {
  const started = current().recorder.ofType("turnStarted")[n];
  if (!started) throw new Error(`no turn ${n}`);
  return started.userMessageId;
}

async function rewind(messageId: MessageId, restore: RewindRestore): Promise<void> {
  current().session.send({ type: "rewind", messageId, restore });
  await current().session.idle();
}

/** Subjects of the shadow repository's snapshots, newest first. */
async function snapshotSubjects(): Promise<string[]> {
  const dir = join(current().home, "data", "checkpoints");
  const [project] = await readdir(dir);
  if (!project) return [];
  const { stdout } = await run(
    "git",
    ["--git-dir", join(dir, project), "log", "--format=%s", CHECKPOINT_REF],
    {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    },
  );
  return stdout.trim().split("\n");
}

/** A first turn that changes the project through Edit and through Bash. */
async function changingTurn(): Promise<void> {
  const x = current();
  await x.repo.write("big.bin", new Uint8Array(NINE_MIB).fill(7));
  x.model.push(
    reply.toolCall("Read", { file_path: x.repo.path("src/auth/token.js") }),
    reply.toolCall("Edit", { ...loginFix, file_path: x.repo.path(loginFix.file_path) }),
    reply.toolCall("Bash", {
      command:
        "echo changed by bash > notes.txt && rm README.md && mkdir -p new && echo hi > new/created.txt && printf x >> big.bin",
    }),
    reply.text("Changed things."),
  );
  expect((await x.session.run("change the project")).outcome).toBe("completed");
  expect(await x.repo.read("src/auth/token.js")).toContain("now >= token.expiresAt");
  expect(existsSync(x.repo.path("README.md"))).toBe(false);
}

describe("checkpoints", () => {
  it("are taken right before the first call of a turn that may write, and not for a turn without tools", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await changingTurn();
    h.model.push(reply.text("Nothing to run."));
    await h.session.run("just talk");
    const checkpoints = h.recorder.ofType("checkpointCreated");
    expect(checkpoints).toHaveLength(1);
    expect(checkpoints[0]?.checkpoint).toMatchObject({
      messageId: userMessage(0),
      unstorable: ["big.bin"],
    });
    h.recorder.expectSubsequence([
      "turnStarted",
      "assistantFinished",
      { type: "toolStarted", toolName: "Read" },
      "checkpointCreated",
      { type: "toolStarted", toolName: "Edit" },
      { type: "toolStarted", toolName: "Bash" },
      "turnFinished",
    ]);
  });

  it("start their snapshot once the first request went out, while its response is still streaming", async () => {
    // The first response (its request out, as when a provider's headers arrived) is held
    // back until the shadow repository has an index (the snapshot wrote it: a small
    // project's is written in process), so the test deadlocks (and times out) if the
    // snapshot waits for the response.
    const snapshotWritten = async () => {
      const dir = join(current().home, "data", "checkpoints");
      const shadows = await readdir(dir).catch(() => []);
      return shadows.some((name) => existsSync(join(dir, name, "index")));
    };
    let model: ModelClient | undefined;
    const held: ModelClient = {
      stream(request, options) {
        const inner = model as ModelClient;
        options?.onSent?.();
        return (async function* () {
          const deadline = Date.now() + 10_000;
          while (!(await snapshotWritten())) {
            if (Date.now() > deadline) throw new Error("the snapshot did not start");
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          yield* inner.stream(request, options);
        })();
      },
    };
    h = await harness({
      files,
      script: [],
      overrides: { mode: "bypass" },
      engine: { clientFactory: ({ role }) => (role === "fast" ? current().fast : held) },
    });
    model = h.model;
    h.model.push(
      reply.toolCall("Bash", { command: "echo later > notes.txt" }),
      reply.text("Done."),
    );
    expect((await h.session.run("change notes")).outcome).toBe("completed");
    const [checkpoint] = h.recorder.ofType("checkpointCreated");
    expect(checkpoint?.checkpoint.messageId).toBe(userMessage(0));
    // The snapshot holds the files as they were before the tool ran.
    await rewind(userMessage(0), "code");
    expect(await h.repo.read("notes.txt")).toBe("original notes\n");
  });
});

describe("rewind", () => {
  it("of code and conversation restores Edit and Bash changes, deleted and created files, and leaves a file over 8 MiB alone", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await changingTurn();
    const before = await snapshotSubjects();
    await rewind(userMessage(0), "both");
    expect(await h.repo.read("src/auth/token.js")).toContain("now > token.expiresAt");
    expect(await h.repo.read("notes.txt")).toBe("original notes\n");
    expect(await h.repo.read("README.md")).toBe("# login demo\n");
    expect(existsSync(h.repo.path("new/created.txt"))).toBe(false);
    expect(existsSync(h.repo.path("new"))).toBe(false);
    expect((await stat(h.repo.path("big.bin"))).size).toBe(NINE_MIB + 1);
    const rewound = h.recorder.ofType("rewound")[0];
    expect(rewound).toMatchObject({
      messageId: userMessage(0),
      restore: "both",
      unstorable: ["big.bin"],
    });
    expect([...(rewound?.restoredPaths ?? [])].sort()).toEqual([
      "README.md",
      "new/created.txt",
      "notes.txt",
      "src/auth/token.js",
    ]);
    const notice = h.recorder.ofType("notice").find((n) => n.code === "rewind.unstorable");
    expect(notice?.message).toContain("big.bin");
    // The state before the restore was snapshotted first, so the rewind itself can be undone.
    const after = await snapshotSubjects();
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toContain("before restoring");
    // The conversation is back to before the first message.
    h.model.push(reply.text("Fresh start."));
    await h.session.run("start over");
    const messages = h.model.requests.at(-1)?.messages ?? [];
    expect(messages).toHaveLength(1);
    expect(JSON.stringify(messages)).not.toContain("change the project");
  });

  it("of the conversation only keeps the files, drops the later messages and makes the agent read again before an edit", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    const token = h.repo.path("src/auth/token.js");
    h.model.push(reply.toolCall("Read", { file_path: token }), reply.text("Read it."));
    await h.session.run("read the token code");
    h.model.push(reply.text("Sure."));
    await h.session.run("a message to rewind away");
    await rewind(userMessage(1), "conversation");
    expect(h.recorder.ofType("rewound")[0]).toMatchObject({
      restore: "conversation",
      restoredPaths: [],
    });
    h.model.push(
      reply.toolCall("Edit", { ...loginFix, file_path: token }),
      reply.toolCall("Read", { file_path: token }),
      reply.toolCall("Edit", { ...loginFix, file_path: token }),
      reply.text("Fixed."),
    );
    const requestsBefore = h.model.requests.length;
    await h.session.run("now fix it");
    const first = h.model.requests[requestsBefore]?.messages ?? [];
    const text = JSON.stringify(first);
    expect(text).toContain("read the token code");
    expect(text).not.toContain("a message to rewind away");
    const edits = h.recorder.ofType("toolFinished").filter((f) => f.toolName === "Edit");
    expect(edits.map((e) => e.status)).toEqual(["error", "ok"]);
    const refusal = JSON.stringify(h.model.requests[requestsBefore + 1]?.messages.at(-1));
    expect(refusal).toContain("has not been read yet");
    expect(await h.repo.read("src/auth/token.js")).toContain("now >= token.expiresAt");
  });

  // Depends on the store's replay moving the conversation only for `conversation` and
  // `both` rewinds (a code-only rewind record must leave the working set as it is).
  it("of code only restores the files and keeps the conversation", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await changingTurn();
    await rewind(userMessage(0), "code");
    expect(await h.repo.read("notes.txt")).toBe("original notes\n");
    expect(await h.repo.read("src/auth/token.js")).toContain("now > token.expiresAt");
    expect(h.recorder.ofType("rewound")[0]).toMatchObject({ restore: "code" });
    h.model.push(reply.text("Still here."));
    await h.session.run("what did you change?");
    const text = JSON.stringify(h.model.requests.at(-1)?.messages);
    expect(text).toContain("change the project");
    expect(text).toContain("Changed things.");
  });

  it("to a message after which no tool ran moves only the conversation", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await changingTurn();
    h.model.push(reply.text("Just talking."));
    await h.session.run("talk only");
    await h.repo.write("notes.txt", "edited by the user\n");
    await rewind(userMessage(1), "both");
    expect(h.recorder.ofType("rewound")[0]).toMatchObject({ restore: "both", restoredPaths: [] });
    expect(await h.repo.read("notes.txt")).toBe("edited by the user\n");
  });

  it("to an unknown message, or while a turn runs, changes nothing and says why", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    h.model.push(reply.text("hello"));
    await h.session.run("hi");
    await rewind("msg_unknown" as MessageId, "both");
    expect(h.recorder.ofType("notice").map((n) => n.code)).toContain("rewind.unknownMessage");
    h.model.push({ ...reply.text("slow answer"), delayMs: 100 });
    const ended = h.session.run("slow");
    await h.recorder.waitFor(
      "assistantStarted",
      {},
      { fromIndex: h.recorder.envelopes.length - 1 },
    );
    h.session.send({ type: "rewind", messageId: userMessage(0), restore: "both" });
    await ended;
    expect(h.recorder.ofType("notice").map((n) => n.code)).toContain("rewind.busy");
    expect(h.recorder.ofType("rewound")).toHaveLength(0);
  });

  it("sent the moment turnFinished arrives, waits out the turn's last flush instead of refusing", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await changingTurn();
    h.model.push(reply.text("Just talking."));
    const from = h.recorder.envelopes.length;
    const ended = h.session.run("talk only");
    await h.recorder.waitFor("turnFinished", {}, { fromIndex: from });
    h.session.send({ type: "rewind", messageId: userMessage(0), restore: "both" });
    await ended;
    await h.session.idle();
    expect(h.recorder.ofType("notice").map((n) => n.code)).not.toContain("rewind.busy");
    expect(h.recorder.ofType("rewound")).toHaveLength(1);
    expect(await h.repo.read("notes.txt")).toBe("original notes\n");
  });

  it("whose checkpoint is gone from the shadow repository changes nothing and says why", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await changingTurn();
    await rm(join(h.home, "data", "checkpoints"), { recursive: true, force: true });
    await rewind(userMessage(0), "both");
    expect(h.recorder.ofType("rewound")).toHaveLength(0);
    expect(h.recorder.ofType("notice").find((n) => n.code === "rewind.failed")?.message).toContain(
      "conversation was left as it is",
    );
    expect(await h.repo.read("notes.txt")).toBe("changed by bash\n");
    h.model.push(reply.text("still here"));
    await h.session.run("and now?");
    expect(JSON.stringify(h.model.requests.at(-1)?.messages)).toContain("change the project");
  });

  it("works on a reopened session, from the checkpoints in its log", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await changingTurn();
    const first = userMessage(0);
    await h.session.close();
    const reopened = await h.engine.openSession(h.session.id);
    reopened.send({ type: "rewind", messageId: first, restore: "both" });
    await reopened.idle();
    expect(h.recorder.ofType("rewound")[0]).toMatchObject({ messageId: first, restore: "both" });
    expect(await h.repo.read("notes.txt")).toBe("original notes\n");
    expect(existsSync(h.repo.path("README.md"))).toBe(true);
  });
});

describe("rewinding the conversation and reminders", () => {
  it("gives a nested AGENTS.md reminder again after the messages that carried it are rewound", async () => {
    h = await harness({
      files: { ...loginProject, "src/auth/AGENTS.md": "Tokens are compared in seconds.\n" },
      script: [],
      overrides: { mode: "bypass" },
    });
    const read = () =>
      reply.toolCall("Read", { file_path: (h as Harness).repo.path("src/auth/token.js") });
    const carried = (i: number) =>
      JSON.stringify(h?.model.requests[i]?.messages.at(-1)).includes(
        "Tokens are compared in seconds.",
      );
    h.model.push(read(), reply.text("read it"));
    await h.session.run("read the token code");
    expect(carried(1)).toBe(true);
    const first = h.recorder.ofType("turnStarted")[0]?.userMessageId as MessageId;
    h.session.send({ type: "rewind", messageId: first, restore: "conversation" });
    await h.recorder.waitFor("rewound");
    h.model.push(read(), reply.text("read it again"));
    await h.session.run("read it once more");
    expect(carried(3)).toBe(true);
  });
});
