import type { EngineEventOf } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { decisionModel } from "../decision-model.js";
import { type Harness, harness } from "../harness.js";

// The route use chooses the model, not only the effort (with `[decisions] allow_model_switch`),
// for the main agent's requests of the turn and for a subagent that inherits the session's model.

const REVIEWER = "MARKER-REVIEWER: you review code.";
const files = {
  "src/a.ts": "export const a = 1;\n",
  ".claude/agents/reviewer.md": `---\nname: reviewer\ndescription: Reviews a change\ntools: Read\n---\n${REVIEWER}\n`,
  ".claude/agents/pinned.md": `---\nname: pinned\ndescription: Pinned model\ntools: Read\nmodel: pinned-model\n---\nMARKER-PINNED\n`,
};

function settings(mode: "on" | "shadow" | "off", allowSwitch: boolean): string {
  return [
    "[model]",
    'main = "main-model"',
    'fast = "fast-model"',
    "[decisions]",
    `allow_model_switch = ${allowSwitch}`,
    "timeout_ms = 2000",
    "[experimental]",
    `decisions_route = "${mode}"`,
  ].join("\n");
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const isSub = (marker: string) => (r: { system: readonly { text: string }[] }) =>
  JSON.stringify(r.system).includes(marker);

async function run(mode: "on" | "shadow" | "off", allowSwitch = true) {
  h = await harness({
    files,
    script: [],
    userSettings: settings(mode, allowSwitch),
    fastClient: decisionModel("eager"),
    trusted: true,
  });
  const x = h;
  x.model.push(
    when(
      (r) => !isSub(REVIEWER)(r) && !isSub("MARKER-PINNED")(r),
      reply.toolCalls([
        {
          name: "Agent",
          input: { description: "Review a", prompt: "Review src/a.ts", subagent_type: "reviewer" },
        },
      ]),
    ),
    when(isSub(REVIEWER), reply.text("a.ts looks fine.")),
    when(
      (r) => !isSub(REVIEWER)(r),
      reply.toolCall("Agent", { description: "Pinned", prompt: "Look", subagent_type: "pinned" }),
    ),
    when(isSub("MARKER-PINNED"), reply.text("looked.")),
    reply.text("Done."),
  );
  const summary = await x.session.run("what does a.ts export?");
  const routes = x.recorder.envelopes
    .map((e) => e.event)
    .filter((e): e is EngineEventOf<"routeChosen"> => e.type === "routeChosen")
    .map((e) => e.route);
  const models = (pick: (r: { system: readonly { text: string }[] }) => boolean) =>
    x.model.requests.filter(pick).map((r) => r.model);
  return { summary, routes, models };
}

describe("route: the model", { timeout: 60_000 }, () => {
  it("runs the turn's main requests and an inheriting subagent on the routed model, never a pinned one", async () => {
    const { summary, routes, models } = await run("on");
    expect(summary.outcome).toBe("completed");
    expect(routes).toEqual([
      { effort: "low", model: "fast-model", reason: "small task" },
      { model: "fast-model", reason: "small task" },
    ]);
    const main = models((r) => !isSub(REVIEWER)(r) && !isSub("MARKER-PINNED")(r));
    expect(new Set(main)).toEqual(new Set(["fast-model"]));
    expect(new Set(models(isSub(REVIEWER)))).toEqual(new Set(["fast-model"]));
    // A definition that names its model keeps it: the route never overrides a choice.
    expect(new Set(models(isSub("MARKER-PINNED")))).toEqual(new Set(["pinned-model"]));
  });

  it("without allow_model_switch, in Shadow and Off, keeps the session's model", async () => {
    for (const [mode, allow] of [
      ["on", false],
      ["shadow", true],
      ["off", true],
    ] as const) {
      const { routes, models } = await run(mode, allow);
      const all = models(() => true);
      expect(all.filter((m) => m === "fast-model")).toEqual([]);
      expect(routes.every((r) => r.model === undefined)).toBe(true);
      await h?.dispose();
      h = undefined;
    }
  });
});
