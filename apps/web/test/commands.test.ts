import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newSession, SCREENSHOTS, startFixture } from "./web-harness.js";

// Slash completion lists the engine's command catalog (SessionHandle.commands() over the
// server): engine built-ins and the project's custom commands, read anew as "/" is typed.
// Choosing one runs it as the engine's runCommand.

let browser: Browser;
const cleanup: Array<() => Promise<void>> = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function page(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  cleanup.push(() => context.close());
  return context.newPage();
}

const xCommand =
  "---\ndescription: Explain a file like I am new here\nargument-hint: <file>\n---\nExplain $ARGUMENTS to a newcomer, MARKER-X.\n";

describe("slash commands", { timeout: 90_000 }, () => {
  it("completes the project's custom command from the catalog and runs it", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n", ".claude/commands/x.md": xCommand },
      script: [reply.text("Here is a.txt explained.")],
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    const box = p.getByLabel("Message");
    await box.focus();
    await p.keyboard.type("/");
    const options = p.getByRole("listbox", { name: "Slash commands" }).getByRole("option");
    const x = options.filter({ hasText: /^\/x\b/ });
    await x.waitFor();
    expect(await x.textContent()).toContain("Explain a file like I am new here");
    expect(await x.textContent()).toContain("<file>");
    expect(await x.textContent()).toContain("(project)");
    // The engine's built-ins come from the same catalog.
    await options.filter({ hasText: /^\/cost\b/ }).waitFor();
    await p.keyboard.type("x");
    await expect.poll(() => options.count()).toBe(1);
    await p.screenshot({ path: join(SCREENSHOTS, "completion.png") });
    await p.keyboard.press("Tab");
    expect(await box.inputValue()).toBe("/x ");
    await p.keyboard.type("a.txt");
    await p.keyboard.press("Enter");
    await p.getByText("Here is a.txt explained.").waitFor();
    const asked = JSON.stringify(f.model.requests[0]?.messages);
    expect(asked).toContain("Explain a.txt to a newcomer, MARKER-X.");
  });

  it("reads a command added while the page is open, and shows a built-in's output", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    const box = p.getByLabel("Message");
    await box.fill("/");
    await p
      .getByRole("option")
      .filter({ hasText: /^\/cost\b/ })
      .waitFor();
    expect(
      await p
        .getByRole("option")
        .filter({ hasText: /^\/later\b/ })
        .count(),
    ).toBe(0);
    await box.fill("");
    await mkdir(join(f.repo.root, ".claude", "commands"), { recursive: true });
    await writeFile(
      join(f.repo.root, ".claude", "commands", "later.md"),
      "---\ndescription: Added later\n---\nLater.\n",
    );
    await box.fill("/");
    await p
      .getByRole("option")
      .filter({ hasText: /^\/later\b/ })
      .waitFor();
    await box.fill("/cost");
    await box.press("Enter");
    const output = p.getByTestId("command-output");
    await output.waitFor();
    expect(await output.textContent()).toContain("Cost:");
    expect(f.model.requests).toHaveLength(0);
  });
});
