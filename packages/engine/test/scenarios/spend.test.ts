import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sessionAgentList } from "@z-engine/engine";
import type { ModelRequest } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

let h: Harness | undefined;
let server: Server | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** The main model `m` is free (unknown to every price list); the fast model `f` costs $1 per million tokens. */
const PRICED = '[model]\nmain = "m"\nfast = "f"\n\n[pricing.f]\ninput = 1\noutput = 1\n';
const isTitle = (r: ModelRequest) => JSON.stringify(r.system).includes("title");

interface UsageLine {
  readonly kind: string;
  readonly usage: { readonly costUsd: number };
  readonly model?: string;
  readonly turnId?: string;
  readonly agentId?: string;
  readonly source?: string;
  readonly toolName?: string;
  readonly toolCallId?: string;
}

async function usageRecords(x: Harness): Promise<UsageLine[]> {
  const text = await readFile(x.session.logPath, "utf8");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as UsageLine)
    .filter((r) => r.kind === "usage");
}

/** A local page for WebFetch. */
async function page(text: string): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(text);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
}

const sources = (x: Harness) => x.recorder.ofType("costUpdated").flatMap((e) => e.source ?? []);

describe("fast-model spend", () => {
  it("prices a title and a compaction: in the turn's usage, the session's total and /cost by source", async () => {
    h = await harness({
      files: { "a.txt": "a\n" },
      script: [],
      userSettings: PRICED,
      fastScript: [
        when(isTitle, reply.text("Spend title", { usage: { input: 100_000 } })),
        reply.text("Summary: the user asked about files.", { usage: { input: 200_000 } }),
      ],
    });
    h.model.push(reply.text("first"));
    await h.session.run("first question");
    await h.recorder.waitFor("titleChanged");
    h.model.push(reply.text("second"));
    await h.session.run("second question");
    h.model.push(reply.error("contextOverflow", "prompt is too long"), reply.text("after"));
    const third = await h.session.run("third question");
    expect(third.outcome).toBe("completed");
    expect(third.usage.costUsd).toBeCloseTo(0.2, 6);
    expect(sources(h)).toEqual(["title", "compaction"]);
    expect(h.recorder.ofType("costUpdated").at(-1)?.sessionUsage.costUsd).toBeCloseTo(0.3, 6);

    const records = (await usageRecords(h)).filter((r) => r.source);
    expect(records).toMatchObject([
      { source: "title", model: "f" },
      { source: "compaction", model: "f", turnId: third.turnId },
    ]);
    const cost = await h.session.command("cost");
    const markdown = cost.type === "output" ? cost.markdown : "";
    expect(markdown).toContain("**Cost:** $0.3000");
    expect(markdown).toContain("- compaction: $0.2000 (200000 in / 0 out tokens)");
    expect(markdown).toContain("- title: $0.1000 (100000 in / 0 out tokens)");
  }, 30_000);

  it("prices WebFetch's answer and attributes it to the tool call", async () => {
    const url = await page("The number is 42.");
    h = await harness({
      files: { "a.txt": "a\n" },
      script: [reply.toolCall("WebFetch", { url, prompt: "which number?" }), reply.text("42")],
      fastScript: [reply.text("It says 42.", { usage: { input: 100_000, output: 100_000 } })],
      userSettings: PRICED,
      overrides: { mode: "bypass" },
      engine: { headless: true },
    });
    const summary = await h.session.run("fetch it");
    expect(summary.outcome).toBe("completed");
    expect(summary.usage.costUsd).toBeCloseTo(0.2, 6);
    expect(JSON.stringify(h.model.requests[1]?.messages.at(-1))).toContain("It says 42.");
    const call = h.recorder.ofType("toolStarted")[0];
    expect(sources(h)).toEqual(["webfetch"]);
    expect(await usageRecords(h)).toMatchObject([
      {
        source: "webfetch",
        toolName: "WebFetch",
        toolCallId: call?.toolCallId,
        turnId: summary.turnId,
      },
    ]);
    const [record] = await usageRecords(h);
    expect(record?.agentId).toBeUndefined();
  }, 30_000);

  it("counts a subagent's WebFetch answer in its own figures", async () => {
    const url = await page("The colour is blue.");
    const MARK = "MARKER-SUB: you fetch pages.";
    const sub = (r: ModelRequest) => JSON.stringify(r.system).includes(MARK);
    const main = (r: ModelRequest) => !sub(r);
    h = await harness({
      files: {
        "a.txt": "a\n",
        ".claude/agents/fetcher.md": `---\nname: fetcher\ndescription: Fetches pages\ntools: WebFetch\n---\n${MARK}\n`,
      },
      script: [
        when(
          main,
          reply.toolCall("Agent", { description: "f", prompt: "fetch", subagent_type: "fetcher" }),
        ),
        when(sub, reply.toolCall("WebFetch", { url, prompt: "which colour?" })),
        when(sub, reply.text("blue")),
        when(main, reply.text("done")),
      ],
      fastScript: [reply.text("Blue.", { usage: { input: 300_000 } })],
      userSettings: PRICED,
      overrides: { mode: "bypass" },
      engine: { headless: true },
    });
    const summary = await h.session.run("find the colour");
    expect(summary.outcome).toBe("completed");
    const report = await sessionAgentList(h.session);
    const [agent] = report.agents;
    expect(agent?.usage.costUsd).toBeCloseTo(0.3, 6);
    expect(report.mainUsage.costUsd).toBe(0);
    expect(await usageRecords(h)).toMatchObject([
      { source: "webfetch", agentId: agent?.agentId, toolName: "WebFetch" },
    ]);
    // The Agent call's result reports the subagent's spend, its fast call included.
    expect(JSON.stringify(h.model.requests.at(-1)?.messages.at(-1))).toContain("$0.3000");
  }, 30_000);
});

describe("the cost cap counts fast-model spend", () => {
  it("a WebFetch answer that crosses the session's cap ends the turn as budgetExhausted", async () => {
    const url = await page("The number is 42.");
    h = await harness({
      files: { "a.txt": "a\n" },
      script: [reply.toolCall("WebFetch", { url, prompt: "which number?" }), reply.text("never")],
      fastScript: [reply.text("It says 42.", { usage: { input: 100_000 } })],
      userSettings: `${PRICED}\n[agents]\nsession_cost_cap_usd = 0.05\n`,
      overrides: { mode: "bypass" },
      engine: { headless: true },
    });
    const summary = await h.session.run("fetch it");
    expect(summary.outcome).toBe("budgetExhausted");
    expect(summary.reason).toContain("the session reached its cost cap ($0.05)");
    expect(summary.usage.costUsd).toBeCloseTo(0.1, 6);
    expect(h.model.requests).toHaveLength(1);
  }, 30_000);

  it("a compaction that crosses the turn's budget ends the turn before its retry", async () => {
    h = await harness({
      files: { "a.txt": "a\n" },
      script: [reply.text("first"), reply.text("second")],
      fastScript: [
        when(isTitle, reply.text("Title")),
        reply.text("Summary: files.", { usage: { input: 200_000 } }),
      ],
      userSettings: PRICED,
      overrides: { maxBudgetUsd: 0.1 },
    });
    await h.session.run("first question");
    await h.session.run("second question");
    h.model.push(reply.error("contextOverflow", "prompt is too long"), reply.text("never"));
    const third = await h.session.run("third question");
    expect(third.outcome).toBe("budgetExhausted");
    expect(third.reason).toContain("the turn reached its budget ($0.10)");
    expect(h.recorder.ofType("compacted")).toHaveLength(1);
    expect(h.model.requests).toHaveLength(3);
  }, 30_000);

  it("a fast call is not made once the cap is reached: the title falls back to the prompt", async () => {
    h = await harness({
      files: { "a.txt": "a\n" },
      script: [reply.text("spent", { usage: { input: 100_000 } })],
      userSettings:
        '[model]\nmain = "m"\n\n[pricing.m]\ninput = 1\noutput = 1\n\n[agents]\nsession_cost_cap_usd = 0.05\n',
    });
    const summary = await h.session.run("spend the budget\nand more");
    expect(summary.outcome).toBe("completed");
    const titled = await h.recorder.waitFor("titleChanged");
    expect(titled.title).toBe("spend the budget");
    expect(h.fast.requests).toHaveLength(0);
    const next = await h.session.run("again");
    expect(next.outcome).toBe("budgetExhausted");
  }, 30_000);
});
