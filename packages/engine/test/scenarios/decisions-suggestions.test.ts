import { readFile } from "node:fs/promises";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { decisionModel } from "../decision-model.js";
import { type Harness, harness } from "../harness.js";

// Suggestions: plan_suggest, memory_suggest and review_suggest offer cards (`suggested`);
// nothing happens until the user accepts one (`resolveSuggestion`, or `/suggestion` where
// there are no cards), and accepting goes through the usual paths (plan mode, /remember's
// Write gate, a queued turn). Shadow shows no card.

const LARGE =
  "Migrate the whole storage layer from files to Postgres across every package and test";

function settings(mode: "on" | "shadow", features: readonly string[]): string {
  return [
    "[decisions]",
    "timeout_ms = 2000",
    "[experimental]",
    ...features.map((f) => `decisions_${f} = "${mode}"`),
  ].join("\n");
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function open(
  mode: "on" | "shadow",
  features: readonly string[],
  overrides = {},
  first: ReturnType<typeof reply.text>[] = [],
) {
  h = await harness({
    files: { "README.md": "# demo\n", "AGENTS.md": "# Working here\n" },
    script: [...first, ...Array.from({ length: 6 }, (_, i) => reply.text(`answer ${i}`))],
    userSettings: settings(mode, features),
    fastClient: decisionModel("eager"),
    trusted: true,
    overrides,
  });
  return h;
}

describe("suggestions", { timeout: 60_000 }, () => {
  it("plan: a card, accepted into plan mode; after a dismissal no plan card comes again", async () => {
    const x = await open("on", ["plan_suggest"]);
    await x.session.run(LARGE);
    const card = (await x.recorder.waitFor("suggested", {})).suggestion;
    expect(card.kind).toBe("plan");
    // Offering changed nothing: the mode is the user's until they accept.
    expect(x.recorder.ofType("modeChanged")).toEqual([]);
    x.session.send({ type: "resolveSuggestion", suggestionId: card.id, accepted: true });
    await x.recorder.waitFor("modeChanged", { mode: "plan" });
    await x.recorder.waitFor("suggestionResolved", { suggestionId: card.id, accepted: true });
    x.session.send({ type: "setMode", mode: "ask" });
    await x.session.run(`${LARGE} again`);
    const second = x.recorder.ofType("suggested")[1]?.suggestion;
    expect(second?.kind).toBe("plan");
    const out = await x.session.command("suggestion", `dismiss ${second?.id}`);
    expect(out).toMatchObject({ type: "output" });
    await x.session.run(`${LARGE} once more`);
    await x.session.idle();
    expect(x.recorder.ofType("suggested")).toHaveLength(2);
  });

  it("memory: accepting runs /remember with the rule, through the Write gate", async () => {
    const x = await open("on", ["memory_suggest"], { mode: "acceptEdits" });
    await x.session.run("From now on always use pnpm for package commands here.");
    const card = (await x.recorder.waitFor("suggested", {})).suggestion;
    expect(card).toMatchObject({
      kind: "memory",
      detail: "always use pnpm for package commands here",
    });
    expect(await readFile(x.repo.path("AGENTS.md"), "utf8")).not.toContain("pnpm");
    const out = await x.session.command("suggestion", `accept ${card.id}`);
    expect(JSON.stringify(out)).not.toContain("Usage");
    expect(await readFile(x.repo.path("AGENTS.md"), "utf8")).toContain(
      "- always use pnpm for package commands here",
    );
  });

  it("review: after a turn that changed a file, accepting queues the review turn", async () => {
    const write = reply.toolCall("Write", { file_path: "src/auth/login.ts", content: "x\n" });
    const x = await open("on", ["review_suggest"], { mode: "acceptEdits" }, [write]);
    await x.session.run("add a login module");
    expect(await readFile(x.repo.path("src/auth/login.ts"), "utf8")).toBe("x\n");
    const card = (await x.recorder.waitFor("suggested", {})).suggestion;
    expect(card.kind).toBe("review");
    expect(card.text).toContain("src/auth/login.ts");
    const turns = x.recorder.ofType("turnStarted").length;
    x.session.send({ type: "resolveSuggestion", suggestionId: card.id, accepted: true });
    await x.session.nextTurnEnd();
    const started = x.recorder.ofType("turnStarted");
    expect(started).toHaveLength(turns + 1);
    expect(started.at(-1)?.prompt).toContain("Review the changes");
  });

  it("an unknown id is a notice; Shadow offers no card", async () => {
    const x = await open("shadow", ["plan_suggest", "memory_suggest"]);
    await x.session.run(`${LARGE}. Always use pnpm.`);
    await x.recorder.waitFor("decisionTraced", { trace: { use: "plan_suggest" } });
    expect(x.recorder.ofType("suggested")).toEqual([]);
    x.session.send({ type: "resolveSuggestion", suggestionId: "sg-nope", accepted: true });
    await x.recorder.waitFor("notice", { code: "suggestion.unknown" });
    expect(x.recorder.ofType("modeChanged")).toEqual([]);
  });
});
