import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { decisionModel } from "../decision-model.js";
import { type Harness, harness, resultsOf } from "../harness.js";

// prefetch (issue 46): after a Glob listing several files, the fast model names the two the
// agent will read next; with the feature On their text is in the next request (after the
// results), and a file read ahead whole counts as read for Edit. Shadow and Off change nothing.

const A = "// alpha-file marker-a91\nexport const a = 1;\n";
const B = "// beta-file marker-b92\nexport const b = 2;\n";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function run(mode: "on" | "shadow" | "off") {
  h = await harness({
    files: { "src/a.ts": A, "src/b.ts": B },
    script: [
      reply.toolCall("Glob", { pattern: "src/*.ts" }),
      reply.toolCall("Edit", {
        file_path: "src/a.ts",
        old_string: "export const a = 1;",
        new_string: "export const a = 3;",
      }),
      reply.text("done"),
    ],
    userSettings: [
      "[permissions]",
      'allow = ["Edit"]',
      "[experimental]",
      `decisions_prefetch = "${mode}"`,
    ].join("\n"),
    fastClient: decisionModel("eager"),
  });
  await h.session.run("change a to 3");
  return h;
}

const sent = (h: Harness, i: number) => JSON.stringify(h.model.requests[i]?.messages.at(-1));
const editResult = (h: Harness) => resultsOf(h, 2)[0];

describe("prefetch", { timeout: 60_000 }, () => {
  it("On: the named files' text joins the next request, and Edit takes them as read", async () => {
    const h = await run("on");
    const next = sent(h, 1);
    expect(next).toContain("Prefetched (you need not Read them again):");
    expect(next).toContain("marker-a91");
    expect(next).toContain("marker-b92");
    expect(next).toMatch(/a\.ts lines 1-2/);
    expect(editResult(h)?.isError ?? false).toBe(false);
    const traces = h.recorder.ofType("decisionTraced").map((e) => e.trace);
    expect(traces).toContainEqual(expect.objectContaining({ use: "prefetch", applied: true }));
  });

  it.each(["shadow", "off"] as const)("%s: the next request is unchanged", async (mode) => {
    const h = await run(mode);
    expect(sent(h, 1)).not.toContain("Prefetched");
    expect(sent(h, 1)).not.toContain("marker-a91");
    // Nothing was read for the agent: Edit still wants a Read first.
    expect(editResult(h)?.isError).toBe(true);
    if (mode === "shadow")
      expect(
        await h.recorder.waitFor("decisionTraced", {
          trace: { use: "prefetch", mode: "shadow", applied: false },
        }),
      ).toBeDefined();
  });
});
