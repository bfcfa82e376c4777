import { part, reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { newSession, send, startFixture, sharedBrowser } from "./web-harness.js";

// The other things that wait on the user: a question form, a plan review, todos; steering
// while a turn waits; cancel.

const { cleanup, page } = sharedBrowser();

describe("questions, plans, steering and cancel", { timeout: 90_000 }, () => {
  it("answers a question form and approves a plan from the page", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    const question = {
      question: "Which database?",
      header: "Storage",
      options: [{ label: "SQLite", description: "a file" }, { label: "Postgres" }],
      multiSelect: false,
    };
    f.model.push(
      reply.of(
        part.toolCall("TodoWrite", {
          todos: [{ content: "Pick a database", status: "in_progress" }],
        }),
        part.toolCall("AskUserQuestion", { questions: [question] }),
      ),
      reply.text("SQLite it is."),
      reply.toolCall("ExitPlanMode", { plan: "1. Add the **schema**\n2. Migrate" }),
      reply.text("Plan approved, starting."),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "Set up storage");
    const form = p.getByTestId("question");
    await form.waitFor();
    await p.getByLabel("Todos").getByText("Pick a database").waitFor();
    await form.getByLabel(/SQLite/).check();
    await form.getByRole("button", { name: "Answer" }).click();
    await p.getByText("SQLite it is.").waitFor();
    expect(JSON.stringify(f.model.requests[1]?.messages.at(-1))).toContain("SQLite");

    await p.getByLabel("Mode", { exact: true }).selectOption("plan");
    await expect
      .poll(() => p.getByLabel("Mode", { exact: true }).inputValue(), { timeout: 15_000 })
      .toBe("plan");
    await send(p, "Plan it");
    const plan = p.getByTestId("plan");
    await plan.waitFor();
    await plan.locator("strong", { hasText: "schema" }).waitFor();
    await plan.getByRole("button", { name: "Approve plan" }).click();
    await p.getByText("Plan approved, starting.").waitFor();
    await expect
      .poll(() => p.getByLabel("Mode", { exact: true }).inputValue(), { timeout: 15_000 })
      .toBe("ask");
  });

  it("steers a waiting turn and cancels another", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    f.model.push(
      reply.toolCall("Bash", { command: "ls > one.txt" }),
      reply.text("Steered answer."),
      reply.toolCall("Bash", { command: "ls > two.txt" }),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "List once");
    await p.getByTestId("approval").waitFor();
    await p.getByLabel("Steer the running turn").fill("also mention the weather");
    await p.getByRole("button", { name: "Steer" }).click();
    await p.getByTestId("approval").getByRole("button", { name: "Allow once" }).click();
    await p.getByText("Steered answer.").waitFor();
    expect(JSON.stringify(f.model.requests[1]?.messages)).toContain("also mention the weather");

    await send(p, "List twice");
    await p.getByTestId("approval").waitFor();
    await p.getByRole("button", { name: "Cancel" }).click();
    await p.getByTestId("turn-end").filter({ hasText: "cancelled" }).waitFor();
    expect(await p.getByTestId("approval").count()).toBe(0);
  });
});
