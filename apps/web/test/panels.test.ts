import { join } from "node:path";
import type { ModelRequest } from "@z-engine/protocol";
import { part, reply, when } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { newSession, SCREENSHOTS, send, startFixture, sharedBrowser } from "./web-harness.js";

// The side panel's live parts: background jobs (appear, update, stop), the check records
// behind the badge, cost and tokens per agent.

const { cleanup, page } = sharedBrowser();

const bypass = { permissions: { mode: "bypass" } };

describe("side panel", { timeout: 90_000 }, () => {
  it("shows background jobs as they start and end, and stops one", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [], settings: bypass });
    cleanup.push(() => f.dispose());
    f.model.push(
      reply.of(
        part.toolCall("Bash", {
          command: "sleep 60",
          description: "long watcher",
          run_in_background: true,
        }),
        part.toolCall("Bash", {
          command: "sleep 1; exit 3",
          description: "short failing job",
          run_in_background: true,
        }),
      ),
      reply.text("Two jobs started."),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "start the jobs");
    await p.getByRole("tab", { name: /Agents/ }).click();
    const jobs = p.getByTestId("jobs");
    const long = jobs.getByTestId("job").filter({ hasText: "long watcher" });
    const short = jobs.getByTestId("job").filter({ hasText: "short failing job" });
    await long.and(p.locator('[data-status="running"]')).waitFor();
    // The short one updates by itself: it ends with its exit code.
    await short.and(p.locator('[data-status="failed"]')).waitFor({ timeout: 15_000 });
    await expect.poll(() => short.textContent()).toContain("exit 3");
    await p.getByText("Two jobs started.").waitFor();
    await p.screenshot({ path: join(SCREENSHOTS, "jobs.png") });
    await long.getByRole("button", { name: "Stop long watcher" }).click();
    await long.and(p.locator('[data-status="killed"]')).waitFor({ timeout: 15_000 });
    expect(await long.getByRole("button", { name: /^Stop/ }).count()).toBe(0);
  });

  it("shows the check records behind the badge when it is clicked", async () => {
    const f = await startFixture({
      files: {
        "package.json": JSON.stringify({
          name: "demo",
          version: "1.0.0",
          type: "module",
          scripts: { test: "node --test" },
        }),
        "test/sum.test.js":
          'import { test } from "node:test";\nimport assert from "node:assert/strict";\ntest("adds", () => assert.equal(1 + 1, 3));\n',
      },
      script: [],
      settings: bypass,
    });
    cleanup.push(() => f.dispose());
    f.model.push(
      reply.toolCall("Write", { file_path: f.repo.path("NOTES.md"), content: "notes\n" }),
      reply.toolCall("Verify", { checks: ["npm:test"] }),
      reply.text("The test fails."),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "write notes and check");
    await p.getByText("The test fails.").waitFor({ timeout: 30_000 });
    const badge = p.getByTestId("badge");
    await expect.poll(() => badge.textContent()).toBe("Failed");
    expect(await p.getByTestId("check-records").count()).toBe(0);
    await badge.click();
    expect(await badge.getAttribute("aria-expanded")).toBe("true");
    const record = p.getByTestId("check-records").getByTestId("check-record");
    await record.first().waitFor();
    expect(await record.count()).toBe(1);
    const text = (await record.textContent()) ?? "";
    expect(text).toContain("npm:test");
    expect(text).toContain("failed");
    expect(text).toContain("exit 1");
    expect(text).toMatch(/\$ npm (run )?test/);
    await p.getByTestId("badge-panel").screenshot({ path: join(SCREENSHOTS, "checks.png") });
    await badge.click();
    await expect.poll(() => p.getByTestId("check-records").count()).toBe(0);
  });

  it("shows tokens and cost per turn and per agent, a subagent's spend its own", async () => {
    const marker = "MARKER-REVIEWER: you review code.";
    const isSub = (r: ModelRequest) => JSON.stringify(r.system).includes(marker);
    const isMain = (r: ModelRequest) => !isSub(r);
    const f = await startFixture({
      files: {
        "a.txt": "a\n",
        ".claude/agents/reviewer.md": `---\nname: reviewer\ndescription: Reviews a change\ntools: Read\n---\n${marker}\n`,
      },
      script: [],
      settings: {
        ...bypass,
        model: { main: "priced-model" },
        pricing: { "priced-model": { input: 1000, output: 2000 } },
      },
    });
    cleanup.push(() => f.dispose());
    f.model.push(
      when(
        isMain,
        reply.toolCall(
          "Agent",
          { description: "Review a", prompt: "Review a.txt", subagent_type: "reviewer" },
          { usage: { input: 1000, output: 100 } },
        ),
      ),
      when(isSub, reply.text("Looks fine.", { usage: { input: 3000, output: 500 } })),
      when(isMain, reply.text("The reviewer is happy.", { usage: { input: 2000, output: 100 } })),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "review a.txt");
    await p.getByText("The reviewer is happy.").waitFor();
    const costs = p.getByTestId("agent-costs");
    await expect.poll(() => costs.locator("li").count()).toBe(2);
    const main = costs.locator("li").filter({ hasText: "Main agent" });
    const sub = costs.locator("li").filter({ hasText: /^Agent / });
    // Main: 3,000 in and 200 out = $3.40; the subagent: 3,000 in and 500 out = $4.00.
    await expect.poll(() => main.textContent()).toContain("3,200 tokens");
    expect(await main.textContent()).toContain("$3.40");
    expect(await sub.textContent()).toContain("3,500 tokens");
    expect(await sub.textContent()).toContain("$4.00");
    expect(await p.getByTestId("session-cost").textContent()).toContain("$7.40");
    // The turn: the engine's figure for the main agent, then every agent's.
    const turnEnd = (await p.getByTestId("turn-end").textContent()) ?? "";
    expect(turnEnd).toContain("3,200 tokens (3,000 in, 200 out) · $3.40");
    const all = (await p.getByTestId("turn-all-agents").textContent()) ?? "";
    expect(all).toContain("with subagents 6,700 tokens");
    expect(all).toContain("$7.40");
    await p.getByLabel("Cost").screenshot({ path: join(SCREENSHOTS, "cost.png") });
  });
});
