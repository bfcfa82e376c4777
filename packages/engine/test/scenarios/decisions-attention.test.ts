import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { decisionModel } from "../decision-model.js";
import { type Harness, harness } from "../harness.js";

// attention scores notices as well as approvals: a warning or error notice gets
// `urgencyScored { item: "notice:<code>" }`; info notices and the decision layer's own are
// not asked about, and the notice itself is unchanged.

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function run(mode: "on" | "shadow" | "off") {
  h = await harness({
    files: { "README.md": "# demo\n" },
    script: [reply.text("done")],
    // `not_a_section` is skipped and reported with a warning notice.
    userSettings: [
      "not_a_section = 1",
      "[decisions]",
      "timeout_ms = 2000",
      "[experimental]",
      `decisions_attention = "${mode}"`,
    ].join("\n"),
    fastClient: decisionModel("eager"),
  });
  await h.session.run("hello");
  await h.session.idle();
  return h;
}

describe("attention: notices", { timeout: 60_000 }, () => {
  it("scores a warning notice (On), and only the notice's own item", async () => {
    const x = await run("on");
    const warning = x.recorder.ofType("notice").find((n) => n.level === "warning");
    expect(warning).toBeDefined();
    const scored = await x.recorder.waitFor("urgencyScored", {});
    expect(scored.urgency).toEqual({
      item: `notice:${warning?.code}`,
      level: "high",
      reason: "a delete waits",
    });
  });

  it("gives nothing in Shadow or Off (traced in Shadow)", async () => {
    for (const mode of ["shadow", "off"] as const) {
      const x = await run(mode);
      expect(x.recorder.ofType("notice").some((n) => n.level === "warning")).toBe(true);
      expect(x.recorder.ofType("urgencyScored")).toEqual([]);
      if (mode === "shadow") await x.recorder.waitFor("decisionTraced", {});
      await x.dispose();
      h = undefined;
    }
  });
});
