import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { decisionModel } from "../decision-model.js";
import { type Harness, harness } from "../harness.js";
import { serverState, testServerToml, toolNames } from "../mcp-support.js";

// session_context (issue 46): on the session's first turn the fast model names project files
// and deferred MCP tools; with the feature On the files the Read rules allow join the opening
// message and the tools' definitions are in the first request. Shadow and Off change nothing.

const LOGIN = "// the login text: marker-7f3a\nexport const login = () => true;\n";
const SECRET = "SECRET-SHOULD-NEVER-BE-SENT";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const fast = decisionModel("eager");

async function run(mode: "on" | "shadow" | "off") {
  fast.requests.length = 0;
  h = await harness({
    files: { "README.md": "# Login service\n", "secret/key.txt": SECRET, "src/login.ts": LOGIN },
    script: [reply.text("done"), reply.text("done")],
    repoMap: true,
    userSettings: [
      "[permissions]",
      'allow = ["mcp__many"]',
      'deny = ["Read(secret/**)"]',
      "[experimental]",
      `decisions_session_context = "${mode}"`,
      testServerToml("many", { args: ["--tools", "40"] }),
    ].join("\n"),
    fastClient: fast,
  });
  await serverState(h, "many", "ready");
  await h.session.run("fix the login");
  return h;
}

const opening = (h: Harness) => JSON.stringify(h.model.requests[0]?.messages[0]?.content);
const loaded = (h: Harness) =>
  toolNames(h.model.requests[0]).filter((n) => n.startsWith("mcp__many__"));

describe("session_context", { timeout: 60_000 }, () => {
  it("On: the allowed files' text is in the opening message and five named tools are loaded", async () => {
    const h = await run("on");
    const text = opening(h);
    expect(text).toContain("Files that may matter for this request:");
    expect(text).toContain("marker-7f3a");
    expect(text).toContain("# Login service");
    expect(JSON.stringify(h.model.requests)).not.toContain(SECRET);
    expect(loaded(h)).toHaveLength(5);
    const traces = h.recorder.ofType("decisionTraced").map((e) => e.trace);
    expect(traces).toContainEqual(
      expect.objectContaining({ use: "session_context", applied: true }),
    );
    // Once per session: the second turn asks the fast model nothing more.
    const asked = () =>
      fast.requests.filter((r) => r.system.some((s) => s.text.includes("most likely need to")));
    expect(asked()).toHaveLength(1);
    await h.session.run("and the logout");
    expect(asked()).toHaveLength(1);
    expect(JSON.stringify(h.model.requests[1]?.messages.at(-1))).not.toContain("marker-7f3a");
  });

  it.each(["shadow", "off"] as const)("%s: the first request is unchanged", async (mode) => {
    const h = await run(mode);
    const text = opening(h);
    expect(text).not.toContain("Files that may matter");
    expect(text).not.toContain("marker-7f3a");
    expect(loaded(h)).toEqual([]);
    if (mode === "shadow")
      expect(
        await h.recorder.waitFor("decisionTraced", {
          trace: { use: "session_context", mode: "shadow", applied: false },
        }),
      ).toBeDefined();
  });
});
