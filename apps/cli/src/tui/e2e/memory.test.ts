import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { loginProject, main, type World } from "../../e2e/cli.test.helpers.js";
import { historyWith, IDLE, linesWith, STATUS, submit, tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

const TALL = { width: 100, height: 40 };
const RULE = "Always answer in French.";

/**
 * An editor that says it is ready, waits for the test's go (a file), then reads a line from
 * the terminal and appends it to the file it was given. The keys are typed before the go, so
 * a read zeng left pending on the terminal would take them first: the editor would get none.
 */
async function lineEditor(w: World): Promise<{ path: string; go: () => Promise<void> }> {
  const path = join(w.home, "editor.sh");
  const go = join(w.home, "editor-go");
  await writeFile(
    path,
    [
      "#!/bin/bash",
      'printf "EDITOR READY %s\\n" "$(basename "$1")"',
      `while [ ! -e ${go} ]; do sleep 0.02; done`,
      "IFS= read -r -t 5 line",
      'printf "%s\\n" "$line" >> "$1"',
      "",
    ].join("\n"),
  );
  await chmod(path, 0o755);
  return { path, go: () => writeFile(go, "") };
}

const systemOf = (w: World, index: number) =>
  JSON.stringify((w.mainRequests()[index]?.body as { system?: unknown })?.system);

describe("/memory opens an instruction file in the user's editor", () => {
  it("hands the terminal to $EDITOR, comes back with the transcript, and the next turn reads the edit", async () => {
    const w = await tui.world({
      format: "anthropic",
      files: { ...loginProject, "CLAUDE.md": "Project rules.\n" },
    });
    w.provider.push(main(reply.text("First answer.")), main(reply.text("Second answer.")));
    const editor = await lineEditor(w);
    const pane = tui.pane(w, [], { EDITOR: editor.path, VISUAL: "" }, TALL);
    await submit(pane, "hello");
    await pane.waitFor((s) => s.includes("First answer.") && s.includes(IDLE));
    await submit(pane, "/memory");
    const picker = await pane.waitFor("Edit which instruction file?");
    expect(picker).toContain("Project: ./CLAUDE.md");
    expect(picker).not.toContain("New project memory file");
    pane.keys("Enter");
    await pane.waitFor("EDITOR READY CLAUDE.md");
    pane.type(RULE);
    pane.keys("Enter");
    await editor.go();
    const back = await pane.waitFor(
      (s) =>
        s.includes("Edited ./CLAUDE.md: it applies from the next turn.") &&
        s.includes(IDLE) &&
        s.includes(STATUS),
    );
    expect(await readFile(w.repo.path("CLAUDE.md"), "utf8")).toBe(`Project rules.\n${RULE}\n`);
    // The transcript is back once, the editor's screen and zeng's old frames gone.
    expect(back).toContain("First answer.");
    const history = await historyWith(pane, { [STATUS]: 1, "First answer.": 1 });
    expect(history).not.toContain("EDITOR READY");
    expect(linesWith(history, "First answer.")).toBe(1);
    expect(linesWith(history, STATUS)).toBe(1);
    // The keys went to the editor alone: none reached zeng's input.
    expect(history).not.toContain(`› ${RULE}`);
    await submit(pane, "what now?");
    await pane.waitFor("Second answer.");
    expect(systemOf(w, 0)).not.toContain(RULE);
    expect(systemOf(w, 1)).toContain(RULE);
  }, 90_000);

  it("offers a new AGENTS.md when the project has none; an editor that fails is a notice and the screen comes back", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(main(reply.text("Still here.")));
    const pane = tui.pane(w, [], { EDITOR: "false", VISUAL: "" }, TALL);
    await submit(pane, "/memory");
    const picker = await pane.waitFor("Edit which instruction file?");
    expect(picker).toContain("New project memory file: ./AGENTS.md");
    pane.keys("Enter");
    const back = await pane.waitFor(
      (s) =>
        s.includes("The editor (false) exited with 1") && s.includes(IDLE) && s.includes(STATUS),
    );
    expect(back).toContain("./AGENTS.md is read again from the next turn.");
    expect(linesWith(await historyWith(pane, { [STATUS]: 1 }), STATUS)).toBe(1);
    await submit(pane, "are you there?");
    await pane.waitFor("Still here.");
  }, 90_000);
});
