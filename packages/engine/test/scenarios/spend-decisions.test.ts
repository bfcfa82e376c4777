import { readFile } from "node:fs/promises";
import type { ModelRequest } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

// The decision model's calls through the fast model (not a sidecar program, which reports no
// usage) are the running turn's spend, source `decisions`, and count toward the caps.

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** The main model `m` is free; the fast model `f` costs $1 per million tokens; after_call_notes on. */
const SETTINGS =
  '[model]\nmain = "m"\nfast = "f"\n\n[pricing.f]\ninput = 1\noutput = 1\n\n' +
  '[decisions]\ntimeout_ms = 5000\n\n[experimental]\ndecisions_after_call_notes = "on"\n';
/** A result long enough for after_call_notes to ask the decision model for a note. */
const LONG = `${Array.from({ length: 200 }, (_, i) => `line ${i} of a long log`).join("\n")}\n`;
const isNote = (r: ModelRequest) => JSON.stringify(r.system).includes("one short factual note");
const note = (text: string) =>
  when(isNote, reply.text(JSON.stringify({ note: text }), { usage: { input: 100_000 } }));
const read = (x: Harness) => reply.toolCall("Read", { file_path: x.repo.path("long.log") });

async function open(settings: string): Promise<Harness> {
  return harness({
    files: { "long.log": LONG },
    script: [],
    fastScript: [note("first note"), note("second note"), note("third note")],
    userSettings: settings,
    overrides: { mode: "bypass" },
    engine: { headless: true },
  });
}

describe("the decision model's spend", { timeout: 60_000 }, () => {
  it("is the turn's usage, the session's total and /cost's `decisions` line", async () => {
    h = await open(SETTINGS);
    h.model.push(read(h), read(h), reply.text("read twice"));
    const summary = await h.session.run("read the log twice");
    expect(summary.outcome).toBe("completed");
    expect(h.fast.requests.filter(isNote)).toHaveLength(2);
    // The note joined the next request: the decision really ran.
    expect(JSON.stringify(h.model.requests[1])).toContain("first note");
    expect(summary.usage.costUsd).toBeCloseTo(0.2, 6);
    const updates = h.recorder.ofType("costUpdated");
    expect(updates.flatMap((e) => e.source ?? [])).toEqual(["decisions", "decisions"]);
    expect(updates.at(-1)?.sessionUsage.costUsd).toBeCloseTo(0.2, 6);

    const records = (await readFile(h.session.logPath, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind: string; source?: string; turnId?: string })
      .filter((r) => r.kind === "usage" && r.source);
    expect(records).toMatchObject([
      { source: "decisions", model: "f", turnId: summary.turnId },
      { source: "decisions", model: "f", turnId: summary.turnId },
    ]);
    const cost = await h.session.command("cost");
    const markdown = cost.type === "output" ? cost.markdown : "";
    expect(markdown).toContain("**Cost:** $0.2000");
    expect(markdown).toContain("- decisions: $0.2000 (200000 in / 0 out tokens)");
  });

  it("a session cap just below two notes ends the turn before a third is asked", async () => {
    h = await open(`${SETTINGS}\n[agents]\nsession_cost_cap_usd = 0.15\n`);
    h.model.push(read(h), read(h), read(h), reply.text("never"));
    const summary = await h.session.run("read the log three times");
    expect(summary.outcome).toBe("budgetExhausted");
    expect(summary.reason).toContain("the session reached its cost cap ($0.15)");
    expect(summary.usage.costUsd).toBeCloseTo(0.2, 6);
    expect(h.fast.requests.filter(isNote)).toHaveLength(2);
    expect(h.model.requests).toHaveLength(2);
  });

  it("a note asked once the cap is reached is not sent: it abstains, and the turn ends", async () => {
    h = await open(`${SETTINGS}\n[agents]\nsession_cost_cap_usd = 0.05\n`);
    const x = h;
    const path = x.repo.path("long.log");
    x.model.push(
      reply.toolCalls([
        { name: "Read", input: { file_path: path } },
        // A write: it runs after the Read's call and note (not beside it), so the note's cost is in.
        { name: "Bash", input: { command: `cp ${path} copy.log && cat copy.log` } },
      ]),
      reply.text("never"),
    );
    const summary = await x.session.run("read the log two ways");
    expect(summary.outcome).toBe("budgetExhausted");
    expect(summary.usage.costUsd).toBeCloseTo(0.1, 6);
    expect(x.fast.requests.filter(isNote)).toHaveLength(1);
    expect(x.recorder.ofType("toolFinished").map((f) => f.status)).toEqual(["ok", "ok"]);
    expect(x.model.requests).toHaveLength(1);
  });
});
