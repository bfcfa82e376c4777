import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { newSession, send, startFixture, sharedBrowser } from "./web-harness.js";

// The session header says where and how the session runs: folder, branch, the model (a
// picker from the catalog), mode, effort, the badge, context left; Interrupt and Cancel
// become icons on a narrow screen.

const { cleanup, page } = sharedBrowser();

describe("the session header", { timeout: 90_000 }, () => {
  it("names the folder, the branch, the model, mode, effort and context left, also after a reload", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n" },
      script: [reply.text("hi")],
      settings: { model: { main: "claude-sonnet-4-5", fast: "claude-haiku-4-5" } },
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    const header = p.getByTestId("session-header");
    const folderName = f.repo.root.split("/").at(-1) ?? "";
    await expect
      .poll(() => header.getByTestId("header-folder").textContent())
      .toContain(folderName);
    expect(await header.getByTestId("header-folder").getAttribute("title")).toBe(f.repo.root);
    expect(await header.getByTestId("header-branch").textContent()).toMatch(/main|master/);
    expect(await p.getByLabel("Model", { exact: true }).inputValue()).toBe("claude-sonnet-4-5");
    expect(await p.getByLabel("Mode", { exact: true }).inputValue()).toBe("ask");
    await expect
      .poll(() => header.getByTestId("context-left").textContent())
      .toMatch(/^\d+% context left$/);
    // The picker offers the catalog's models of the provider; choosing one changes the session's.
    const options = await p
      .getByLabel("Model", { exact: true })
      .locator("option")
      .allTextContents();
    expect(options.some((o) => o.startsWith("claude-haiku-4-5"))).toBe(true);
    expect(options.some((o) => o.includes("opus"))).toBe(true);
    await p.getByLabel("Model", { exact: true }).selectOption("claude-haiku-4-5");
    await expect
      .poll(() => p.getByLabel("Model", { exact: true }).inputValue())
      .toBe("claude-haiku-4-5");
    await send(p, "hello");
    await p.getByTestId("turn-end").waitFor();
    expect(f.model.requests.at(-1)?.model).toBe("claude-haiku-4-5");
    await expect
      .poll(() => header.getByTestId("header-badge").textContent())
      .toBe("No code changed");
    await p.getByLabel("Effort", { exact: true }).selectOption("high");
    await expect.poll(() => p.getByLabel("Effort", { exact: true }).inputValue()).toBe("high");

    await p.reload();
    await expect
      .poll(() => header.getByTestId("header-folder").textContent())
      .toContain(folderName);
    expect(await p.getByLabel("Model", { exact: true }).inputValue()).toBe("claude-haiku-4-5");
    expect(await p.getByLabel("Effort", { exact: true }).inputValue()).toBe("high");
  });

  it("shows Interrupt and Cancel as labelled icons at 390 px, without sideways scroll", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    f.model.push(reply.toolCall("Bash", { command: "echo hi" }), reply.text("done"));
    const p = await page({ width: 390, height: 844 });
    await newSession(p, f);
    await send(p, "run it");
    await p.getByTestId("approval").waitFor();
    const interrupt = p.getByRole("button", { name: "Interrupt" });
    const cancel = p.getByRole("button", { name: "Cancel", exact: true });
    await interrupt.waitFor();
    // The words are hidden on a narrow screen; the buttons keep their names.
    expect(await interrupt.locator(".wide-only").isVisible()).toBe(false);
    const box = await interrupt.boundingBox();
    expect(box?.width ?? 99).toBeLessThan(60);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await cancel.click();
    await p.getByTestId("turn-end").filter({ hasText: "cancelled" }).waitFor();
  });
});
