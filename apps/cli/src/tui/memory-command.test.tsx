import { emptyUsage } from "@z-engine/protocol";
import { render } from "ink-testing-library";
import { describe, expect, it, vi } from "vitest";
import { App } from "./app.js";
import type { HandOff } from "./hand-off.js";
import { deferredHistory } from "./history.js";
import { ViewStore } from "./store.js";
import type { ScreenHost } from "./ui.js";
import { withUiCommands } from "./ui-commands.js";
import { add, initialView } from "./view.js";

const ENGINE_MEMORY = {
  name: "memory",
  description: "Show the instruction files and re-read them",
};

/** The App with the engine's `/memory` in its catalog and a host that records `/memory`'s calls. */
function mount(files: ScreenHost["memoryFiles"]) {
  const store = new ViewStore({
    ...initialView({ mode: "ask", model: "m", usage: emptyUsage(), trusted: true }),
    commands: [ENGINE_MEMORY],
  });
  const edits: string[] = [];
  let finish: () => void = () => {};
  const host: ScreenHost = {
    clear: () => {},
    sessions: () => Promise.resolve([]),
    resume: () => {},
    memoryFiles: files,
    editMemory: async (path: string, handOff: HandOff) => {
      edits.push(path);
      await handOff(() => new Promise<void>((resolve) => (finish = resolve)));
      store.change((v) => add(v, { kind: "info", text: `Edited ${path}` }));
    },
  };
  const sent: unknown[] = [];
  const app = render(
    <App
      store={store}
      send={(c) => sent.push(c)}
      exit={() => {}}
      history={deferredHistory()}
      files={() => []}
      host={host}
    />,
  );
  const frame = () => app.lastFrame() ?? "";
  // ink renders on its own schedule: the frame is looked at until it holds.
  const until = (test: (f: string) => boolean) =>
    vi.waitFor(
      () => {
        if (!test(frame())) throw new Error(`the frame:\n${frame()}`);
        return frame();
      },
      { timeout: 2000, interval: 5 },
    );
  const type = async (text: string) => {
    for (const k of text) {
      app.stdin.write(k);
      await new Promise((r) => setImmediate(r));
    }
  };
  return { app, store, edits, sent, frame, until, type, finish: () => finish() };
}

describe("/memory in the terminal UI", () => {
  it("answers in place of the engine's command, and /help describes the UI's", () => {
    const listed = withUiCommands([ENGINE_MEMORY, { name: "cost", description: "c" }]);
    expect(listed.filter((c) => c.name === "memory")).toEqual([
      {
        name: "memory",
        description: "Edit an instruction file (AGENTS.md, CLAUDE.md) in your editor",
      },
    ]);
    expect(listed[0]?.name).toBe("memory");
  });

  it("opens a picker of the files; picking one hands the terminal over and brings the screen back", async () => {
    const t = mount(() =>
      Promise.resolve({
        choices: [
          { label: "User: ~/.claude/CLAUDE.md", value: "/home/u/.claude/CLAUDE.md" },
          { label: "Project: ./AGENTS.md", value: "/p/AGENTS.md" },
        ],
        skipped: ["./CLAUDE.local.md (it links outside the project)"],
      }),
    );
    await t.until((f) => f.includes("type a message"));
    await t.type("/memory\r");
    const picker = await t.until((f) => f.includes("Edit which instruction file?"));
    expect(picker).toContain("Project: ./AGENTS.md");
    expect(picker).toContain("Not offered (not read): ./CLAUDE.local.md");
    expect(t.sent).toEqual([]);
    await t.type("2");
    // While the editor has the terminal, only the transcript is drawn: no input, no status.
    await t.until((f) => !f.includes("type a message"));
    expect(t.edits).toEqual(["/p/AGENTS.md"]);
    await t.type("ignored");
    t.finish();
    const back = await t.until(
      (f) => f.includes("Edited /p/AGENTS.md") && f.includes("type a message"),
    );
    expect(back).not.toContain("ignored");
    expect(back).not.toContain("Edit which instruction file?");
  });

  it("says so when there is nothing to offer", async () => {
    const t = mount(() => Promise.resolve({ choices: [], skipped: [] }));
    await t.until((f) => f.includes("type a message"));
    await t.type("/memory\r");
    await t.until((f) => f.includes("No instruction file to edit."));
    expect(t.edits).toEqual([]);
  });
});
