import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import type { EngineEvent, EventEnvelope } from "@z-engine/protocol";
import { emptyUsage } from "@z-engine/protocol";
import { Text } from "ink";
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { startingState } from "./open.js";
import { PALETTES, ThemeContext, useColor } from "./theme.js";
import { initialView, reduce, type View } from "./view.js";

// `[appearance] theme` and `show_thinking` reach the terminal UI (issue 46: parsed, never read).

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function Probe() {
  const c = useColor();
  return <Text>{`${c("accent")} ${c("warn")}`}</Text>;
}

const fold = (events: EngineEvent[], from: View): View =>
  events.reduce(
    (view, event, seq) =>
      reduce(view, { v: 2, sessionId: "s", seq, ts: 0, event } as EventEnvelope),
    from,
  );

const thinkingTurn: EngineEvent[] = [
  { type: "thinkingDelta", messageId: "m1" as never, text: "Which file holds " },
  { type: "thinkingDelta", messageId: "m1" as never, text: "the token?" },
  { type: "textDelta", messageId: "m1" as never, text: "It is src/auth.ts.\n\n" },
  { type: "assistantFinished", usage: emptyUsage() } as unknown as EngineEvent,
];

describe("appearance settings in the TUI", () => {
  it("the settings' theme picks the palette the rows are coloured with", async () => {
    dir = await mkdtemp(join(tmpdir(), "zeng-appearance-"));
    const env = {
      HOME: dir,
      ZENGINE_CONFIG_HOME: join(dir, "config"),
      ZENGINE_HOME: join(dir, "data"),
    };
    const paths = resolvePaths(env);
    await mkdir(paths.configDir, { recursive: true });
    await writeFile(
      paths.userSettingsFile,
      '[appearance]\ntheme = "light"\nshow_thinking = false\n',
    );
    const start = startingState(env, paths, dir, {} as never);
    expect([start.theme, start.showThinking]).toEqual(["light", false]);

    const light = render(
      <ThemeContext.Provider value={start.theme}>
        <Probe />
      </ThemeContext.Provider>,
    );
    expect(light.lastFrame()).toBe(`${PALETTES.light.accent} ${PALETTES.light.warn}`);
    light.unmount();
    const plain = render(<Probe />);
    expect(plain.lastFrame()).toBe("cyan yellow");
    plain.unmount();
    expect(PALETTES.light.warn).not.toBe(PALETTES.system.warn);
  });

  it("shows thinking dimmed before the answer with show_thinking, and drops it without", () => {
    const base = { mode: "ask" as const, model: "m", usage: emptyUsage() };
    const shown = fold(thinkingTurn, initialView(base));
    expect(shown.items.map((i) => [i.kind, "text" in i ? i.text : ""])).toEqual([
      ["thinking", "Which file holds the token?"],
      ["assistant", "It is src/auth.ts."],
    ]);
    const hidden = fold(thinkingTurn, initialView({ ...base, showThinking: false }));
    expect(hidden.items.map((i) => i.kind)).toEqual(["assistant"]);
    expect(hidden.thinking).toBe("");
  });
});
