import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";
import { logLines, serverState, testServerToml } from "../mcp-support.js";

// Issue 46: edits of the settings files reach an open session without a trust reload.

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function write(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** The next notice with this code after what was recorded so far. */
function nextNotice(x: Harness, code: string) {
  return x.recorder.waitFor(
    "notice",
    { code },
    { fromIndex: x.recorder.envelopes.length, timeoutMs: 10_000 },
  );
}

const readStatuses = (x: Harness) =>
  x.recorder
    .ofType("toolFinished")
    .filter((f) => f.toolName === "Read")
    .map((f) => f.status);

describe("live settings", { timeout: 60_000 }, () => {
  it("a rule and a model edited on disk apply at the next turn, with one notice naming them", async () => {
    h = await harness({
      files: { "README.md": "# readme\n" },
      script: [reply.toolCall("Read", { file_path: "README.md" }), reply.text("read it")],
      engine: { headless: true },
    });
    await h.session.run("read the readme");
    expect(readStatuses(h)).toEqual(["ok"]);

    // The project's own personal settings (not trust-gated: a deny rule only adds caution),
    // a file and a folder that did not exist when the session opened.
    const changed = nextNotice(h, "settings.changed");
    await write(
      h.repo.path(".z-engine/settings.local.toml"),
      '[permissions]\ndeny = ["Read(./README.md)"]\n',
    );
    const notice = await changed;
    expect(notice.message).toContain(".z-engine/settings.local.toml");
    expect(notice.message).toContain("permissions.deny");

    h.model.push(reply.toolCall("Read", { file_path: "README.md" }), reply.text("denied"));
    await h.session.run("read it again");
    expect(readStatuses(h)).toEqual(["ok", "denied"]);

    const userFile = join(h.env.ZENGINE_CONFIG_HOME ?? "", "settings.toml");
    const moved = nextNotice(h, "settings.changed");
    await write(userFile, '[model]\nmain = "model-from-the-edit"\n');
    expect((await moved).message).toContain("model.main");
    h.model.push(reply.text("on the new model"));
    await h.session.run("hello");
    expect(h.model.requests.at(-1)?.model).toBe("model-from-the-edit");
    expect(h.recorder.ofType("modelChanged").map((m) => m.model)).toEqual(["model-from-the-edit"]);
    expect(h.recorder.ofType("notice").filter((n) => n.code === "settings.changed")).toHaveLength(
      2,
    );
  });

  it("a malformed edit keeps the last good settings and says once what is wrong", async () => {
    const local = ".z-engine/settings.local.toml";
    h = await harness({
      files: {
        "README.md": "# readme\n",
        [local]: '[permissions]\ndeny = ["Read(./README.md)"]\n',
      },
      script: [],
      engine: { headless: true },
    });
    const invalid = nextNotice(h, "settings.invalid");
    await writeFile(h.repo.path(local), "[permissions\ndeny = [\n");
    const notice = await invalid;
    expect(notice.level).toBe("warning");
    expect(notice.message).toContain("settings.local.toml");
    expect(notice.message).toContain("keeps its last good settings");

    // The deny rule of the good file still holds.
    h.model.push(reply.toolCall("Read", { file_path: "README.md" }), reply.text("denied"));
    await h.session.run("read the readme");
    expect(readStatuses(h)).toEqual(["denied"]);

    // A key of the wrong type is a broken edit too (at open it would be skipped alone).
    const again = nextNotice(h, "settings.invalid");
    await writeFile(h.repo.path(local), '[permissions]\ndeny = "Read(./README.md)"\n');
    expect((await again).message).toContain("permissions");

    // Fixed: it applies, with the change named.
    const fixed = nextNotice(h, "settings.changed");
    await writeFile(h.repo.path(local), "[permissions]\ndeny = []\n");
    expect((await fixed).message).toContain("permissions.deny");
    h.model.push(reply.toolCall("Read", { file_path: "README.md" }), reply.text("read"));
    await h.session.run("read it now");
    expect(readStatuses(h)).toEqual(["denied", "ok"]);
    expect(h.recorder.ofType("notice").filter((n) => n.code === "settings.invalid")).toHaveLength(
      2,
    );
  });

  it("a changed MCP server entry restarts only that server", async () => {
    h = await harness({
      files: { "README.md": "# readme\n" },
      script: [],
      trusted: true,
      prepare: async (repo, home) => {
        await write(
          repo.path(".z-engine/settings.toml"),
          testServerToml("one", { env: { MCP_TEST_LOG: join(home, "one.log") } }) +
            testServerToml("two", { env: { MCP_TEST_LOG: join(home, "two.log") } }),
        );
      },
    });
    const logOne = join(h.home, "one.log");
    const logTwo = join(h.home, "two.log");
    await Promise.all([serverState(h, "one", "ready"), serverState(h, "two", "ready")]);
    const started = (file: string) => logLines(file).filter((l) => l.startsWith("started"));
    expect([started(logOne).length, started(logTwo).length]).toEqual([1, 1]);

    const from = h.recorder.envelopes.length;
    const changed = nextNotice(h, "settings.changed");
    await writeFile(
      h.repo.path(".z-engine/settings.toml"),
      testServerToml("one", { env: { MCP_TEST_LOG: logOne } }) +
        testServerToml("two", { env: { MCP_TEST_LOG: logTwo }, args: ["--tools", "2"] }),
    );
    const notice = await changed;
    expect(notice.message).toContain("mcp.servers.two");
    expect(notice.message).toContain("MCP servers restarted or stopped: two.");
    await h.recorder.waitFor(
      "mcpServerUpdated",
      { server: { name: "two", state: "ready" } },
      { fromIndex: from, timeoutMs: 20_000 },
    );
    expect([started(logOne).length, started(logTwo).length]).toEqual([1, 2]);
    const updated = h.recorder.envelopes
      .slice(from)
      .map((e) => e.event)
      .flatMap((e) => (e.type === "mcpServerUpdated" ? [e.server.name] : []));
    expect(new Set(updated)).toEqual(new Set(["two"]));
  });
});
