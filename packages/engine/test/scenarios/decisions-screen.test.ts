import type { ApprovalDecision } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, loginProject } from "../harness.js";

// screen_request (architecture.md "One round" step 3): likely credentials in new tool results
// are asked about once before they are sent; withheld values become placeholders in this and
// every later request. Known key formats are found always; the classifier adds the rest.

const GITHUB = `ghp_${"aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"}`;
const DB = "Qm9vX2F3ZXNvbWVfc2VjcmV0X3ZhbHVlXzQyNzE5";
const files = { ...loginProject, "creds.txt": `GITHUB_TOKEN=${GITHUB}\nDATABASE_PASSWORD=${DB}\n` };

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const requestText = (h: Harness, i: number) => JSON.stringify(h.model.requests[i]?.messages ?? []);

async function screened(mode: "on" | "off", answer: ApprovalDecision) {
  h = await harness({
    files,
    script: [],
    // A generous deadline: the first load of the classifier on a loaded machine takes seconds.
    userSettings: `[decisions]\ntimeout_ms = 5000\n[experimental]\ndecisions_screen_request = "${mode}"`,
    approve: (r) => (r.title.includes("credential") ? answer : { type: "allowOnce" }),
  });
  h.model.push(
    reply.toolCall("Read", { file_path: h.repo.path("creds.txt") }),
    reply.text("read it"),
    reply.text("second turn"),
  );
  await h.session.run("show me creds.txt");
  await h.session.run("and now?");
  return h;
}

describe("screen_request", { timeout: 60_000 }, () => {
  it("On: asks once about both values; denied, they are placeholders in this and every later request", async () => {
    const h = await screened("on", { type: "deny" });
    const asks = h.recorder
      .ofType("approvalRequested")
      .filter((a) => a.title.includes("credential"));
    expect(asks.map((a) => a.title)).toEqual([
      "Send 2 likely credentials in tool results to the model?",
    ]);
    expect(asks[0]?.reason).not.toContain(GITHUB);
    expect(asks[0]?.suggestedRules).toEqual([]);
    for (const i of [1, 2]) {
      const text = requestText(h, i);
      expect(text).not.toContain(GITHUB);
      expect(text).not.toContain(DB);
      expect(text).toContain("[withheld credential 1]");
      expect(text).toContain("[withheld credential 2]");
    }
    expect(h.model.requests).toHaveLength(3);
  });

  it("On and allowed: the values are sent, and not asked about again", async () => {
    const h = await screened("on", { type: "allowOnce" });
    expect(h.recorder.ofType("approvalRequested")).toHaveLength(1);
    expect(requestText(h, 1)).toContain(GITHUB);
    expect(requestText(h, 2)).toContain(DB);
  });

  it("Off: the always-on detector still catches the known key format, the classifier does not run", async () => {
    const h = await screened("off", { type: "deny" });
    const asks = h.recorder.ofType("approvalRequested");
    expect(asks.map((a) => a.title)).toEqual([
      "Send 1 likely credential in tool results to the model?",
    ]);
    expect(asks[0]?.reason).toContain("GitHub token");
    const text = requestText(h, 2);
    expect(text).not.toContain(GITHUB);
    expect(text).toContain("[withheld credential 1]");
    expect(text).toContain(DB);
    expect(h.recorder.ofType("decisionTraced")).toEqual([]);
  });

  it("headless: no one can answer, so the values are withheld", async () => {
    h = await harness({
      files,
      script: [],
      userSettings: `[decisions]\ntimeout_ms = 5000\n[experimental]\ndecisions_screen_request = "on"`,
      engine: { headless: true },
    });
    h.model.push(reply.toolCall("Read", { file_path: h.repo.path("creds.txt") }), reply.text("ok"));
    await h.session.run("show me creds.txt");
    const text = requestText(h, 1);
    expect(text).not.toContain(GITHUB);
    expect(text).not.toContain(DB);
    expect(h.recorder.ofType("approvalResolved").map((a) => a.by)).toEqual(["headless"]);
  });
});
