import { join } from "node:path";
import { part, reply } from "@z-engine/testkit";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newSession, SCREENSHOTS, send, startFixture, sharedBrowser } from "./web-harness.js";

// Reload mid-turn and a server restart: the view rebuilds from the stored history plus the
// live events, with nothing lost or shown twice.

const { cleanup, page } = sharedBrowser({ width: 1100, height: 800 });

const textCount = (p: Page, text: string) =>
  p.getByTestId("assistant-message").filter({ hasText: text }).count();

describe("resilience", { timeout: 90_000 }, () => {
  it("rebuilds the view after a reload mid-turn, then after a server restart", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    f.model.push(
      reply.of(
        part.text("Partial answer before the ask."),
        part.toolCall("Bash", { command: "ls > listing.txt" }, "call-ls"),
      ),
      reply.text("Finished after the reload."),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "List the folder");
    await p.getByTestId("approval").waitFor();
    await p.getByText("Partial answer before the ask.").waitFor();

    await p.reload();
    await p.getByTestId("approval").waitFor();
    await p.getByText("Partial answer before the ask.").waitFor();
    expect(await textCount(p, "Partial answer before the ask.")).toBe(1);
    expect(await p.getByTestId("user-message").count()).toBe(1);
    expect(await p.getByTestId("approval").count()).toBe(1);
    await p.getByTestId("approval").getByRole("button", { name: "Allow once" }).click();
    await p.getByTestId("turn-end").waitFor();
    await p.getByText("Finished after the reload.").waitFor();
    expect(await textCount(p, "Finished after the reload.")).toBe(1);
    expect(await p.getByTestId("tool").count()).toBe(1);
    expect(await p.getByTestId("approval").count()).toBe(0);

    // A new server over the same data: the session list offers it, and opening it replays the log.
    await f.restart([reply.text("Resumed and answered.")]);
    await p.goto(f.server.url);
    await p.getByTestId("sessions").getByRole("button").first().click();
    await p.getByText("Finished after the reload.").waitFor();
    expect(await textCount(p, "Partial answer before the ask.")).toBe(1);
    expect(await p.getByTestId("tool").count()).toBe(1);
    await send(p, "And now?");
    await p.getByText("Resumed and answered.").waitFor();
    await expect.poll(() => p.getByTestId("turn-end").count(), { timeout: 15_000 }).toBe(2);
    await p.screenshot({ path: join(SCREENSHOTS, "resumed.png") });
  });

  it("shows the trust banner with what it withholds, and trusting the folder clears it", async () => {
    const f = await startFixture({
      files: {
        ".z-engine/settings.toml": '[permissions]\nallow = ["Bash(ls:*)"]\n',
        "a.txt": "a\n",
      },
      script: [],
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    const banner = p.getByTestId("trust-banner");
    await banner.waitFor();
    expect(await banner.getByTestId("withheld").textContent()).toContain("permissions.allow");
    await p.screenshot({ path: join(SCREENSHOTS, "trust.png") });
    await banner.getByRole("button", { name: "Trust this folder" }).click();
    await banner.waitFor({ state: "detached" });
    await p.getByText("is trusted").waitFor();
  });

  it("says so when a session cannot be opened because another owner holds it", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    // Opened by the engine itself, not through the page: the session's lock is held.
    const held = await f.engine.createSession(f.repo.root);
    const p = await page();
    await p.goto(`${f.server.url}&session=${held.id}`);
    await p.getByRole("alert").filter({ hasText: "could not be opened" }).waitFor();
  });
});
