import type { ModelRequest } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { newSession, send, startFixture, sharedBrowser } from "./web-harness.js";

// Agents and jobs: subagents with their transcripts, cost and status, background shells with
// their output, stopping a job, and an approval card that says which agent asked.

const { cleanup, page } = sharedBrowser();
const MARK = "MARKER-LOOKER: you look around.";
const isSub = (r: ModelRequest) => JSON.stringify(r.system).includes(MARK);
const isMain = (r: ModelRequest) => !isSub(r);
const files = {
  "a.txt": "a\n",
  ".claude/agents/looker.md": `---\nname: looker\ndescription: Looks around\ntools: Read, Bash\n---\n${MARK}\n`,
};

describe("agents and jobs", { timeout: 90_000 }, () => {
  it("lists a subagent with its status and cost, opens its transcript from its call, and shows a job's output", async () => {
    const f = await startFixture({
      files,
      script: [],
      settings: {
        permissions: { mode: "bypass" },
        model: { main: "m" },
        pricing: { m: { input: 1000, output: 1000 } },
      },
    });
    cleanup.push(() => f.dispose());
    f.model.push(
      when(
        isMain,
        reply.toolCall("Agent", {
          description: "Look at a",
          prompt: "read a.txt",
          subagent_type: "looker",
        }),
      ),
      when(
        isSub,
        reply.toolCall(
          "Read",
          { file_path: f.repo.path("a.txt") },
          { usage: { input: 100, output: 10 } },
        ),
      ),
      when(isSub, reply.text("a.txt holds one letter.", { usage: { input: 100, output: 10 } })),
      when(
        isMain,
        reply.toolCall("Bash", {
          command: "echo watching; sleep 60",
          description: "watcher",
          run_in_background: true,
        }),
      ),
      when(isMain, reply.text("The looker is done; a watcher runs.")),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "look around");
    await p.getByText("The looker is done; a watcher runs.").waitFor();
    // The subagent's own rows are not in the main transcript.
    expect(await p.getByTestId("transcript").getByText("a.txt holds one letter.").count()).toBe(0);
    const call = p.getByTestId("tool").filter({ hasText: "Agent" });
    await call.locator("summary").click();
    await call.getByRole("button", { name: "Open the agent's transcript" }).click();
    const agent = p.getByTestId("agent");
    await expect.poll(() => agent.getAttribute("data-status")).toBe("completed");
    expect(await agent.textContent()).toContain("looker");
    expect(await agent.textContent()).toContain("220 tokens (200 in, 20 out) · $0.22");
    const transcript = p.getByTestId("agent-transcript");
    await transcript.getByText("a.txt holds one letter.").waitFor();
    expect(await transcript.getByTestId("tool").filter({ hasText: "Read" }).count()).toBe(1);

    const job = p.getByTestId("job").filter({ hasText: "watcher" });
    await job.and(p.locator('[data-status="running"]')).waitFor();
    await job.getByRole("button", { name: "Output" }).click();
    await expect
      .poll(
        async () => {
          await job.getByRole("button", { name: "Refresh" }).click();
          return job.getByTestId("job-output").textContent();
        },
        { timeout: 15_000 },
      )
      .toContain("watching");
    await job.getByRole("button", { name: "Stop watcher" }).click();
    await job.and(p.locator('[data-status="killed"]')).waitFor();
  });

  it("stops a running foreground subagent from the Agents panel and from its call's row; the turn goes on", async () => {
    const f = await startFixture({
      files,
      script: [],
      settings: { permissions: { mode: "bypass" } },
    });
    cleanup.push(() => f.dispose());
    const look = (description: string) =>
      when(
        isMain,
        reply.toolCall("Agent", { description, prompt: "wait", subagent_type: "looker" }),
      );
    // Each subagent waits on its model until it is stopped.
    f.model.push(
      look("Wait here"),
      when(isSub, reply.fault({ stall: true })),
      when(isMain, reply.text("Carried on without the looker.")),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "start a looker");
    await p.getByRole("tab", { name: /Agents/ }).click();
    const agent = p.getByTestId("agent").filter({ hasText: "Wait here" });
    await agent.and(p.locator('[data-status="running"]')).waitFor();
    await agent.getByRole("button", { name: "Stop the looker agent" }).click();
    await p.getByText("Carried on without the looker.").waitFor();
    await agent.and(p.locator('[data-status="cancelled"]')).waitFor();
    expect(await agent.textContent()).toContain("stopped by the user");
    const call = p.getByTestId("tool").filter({ hasText: "Agent" });
    expect(await call.getAttribute("class")).toContain("status-error");
    const result = JSON.stringify(f.model.requests.at(-1)?.messages.at(-1));
    expect(result).toContain("cancelled: stopped by the user");

    f.model.push(
      look("Wait again"),
      when(isSub, reply.fault({ stall: true })),
      when(isMain, reply.text("Carried on again.")),
    );
    await send(p, "start another");
    const second = p.getByTestId("tool").filter({ hasText: "Wait again" });
    await second.getByRole("button", { name: "Stop the agent" }).click();
    await p.getByText("Carried on again.").waitFor();
    await p
      .getByTestId("agent")
      .filter({ hasText: "Wait again" })
      .and(p.locator('[data-status="cancelled"]'))
      .waitFor();
    expect(await p.getByRole("button", { name: "Stop the agent" }).count()).toBe(0);
    expect(await p.getByTestId("turn-end").count()).toBe(2);
  });

  it("says which agent asked on its approval card", async () => {
    const f = await startFixture({ files, script: [] });
    cleanup.push(() => f.dispose());
    f.model.push(
      when(
        isMain,
        reply.toolCall("Agent", {
          description: "Count files",
          prompt: "count",
          subagent_type: "looker",
        }),
      ),
      when(isSub, reply.toolCall("Bash", { command: "ls | wc -l > count.txt" })),
      when(isSub, reply.text("counted")),
      when(isMain, reply.text("The looker counted.")),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "count the files");
    const asked = p.getByTestId("approval").filter({ hasText: "ls | wc -l" });
    await asked.waitFor();
    await expect
      .poll(() => asked.getByTestId("asked-by").textContent())
      .toMatch(/^Asked by (the looker agent \(agent_\w+\)|agent agent_\w+)$/);
    await asked.getByRole("button", { name: "Allow once" }).click();
    await p.getByText("The looker counted.").waitFor();
  });
});
