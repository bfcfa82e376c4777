import { join } from "node:path";
import { part, reply } from "@z-engine/testkit";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newSession, SCREENSHOTS, send, startFixture } from "./web-harness.js";

// Interrupting a running turn: Esc anywhere on the page, or the header's Interrupt button. The
// transcript then shows the turn ended by the interrupt, and the next prompt runs as usual.

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

/** A long answer streamed one word every 150 ms (about 12 s in all). */
const slow = (tag: string) => ({
  ...reply.of(...Array.from({ length: 80 }, (_, i) => part.text(`${tag}${i} `))),
  delayMs: 150,
});

describe("interrupt", { timeout: 90_000 }, () => {
  it("Esc and the Interrupt button stop a running turn; the transcript says so", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n" },
      script: [slow("alpha"), slow("beta"), reply.text("Back to normal.")],
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    const ends = p.getByTestId("turn-end");

    await send(p, "tell me a long story");
    await p.getByText("alpha2", { exact: false }).waitFor();
    await p.keyboard.press("Escape");
    await ends.first().filter({ hasText: "cancelled" }).waitFor({ timeout: 15_000 });
    expect(await ends.first().textContent()).toContain("interrupted by user");
    // The partial answer stays; the stream stopped well before its end.
    const first = (await p.getByTestId("assistant-message").first().textContent()) ?? "";
    expect(first).toContain("alpha2");
    expect(first).not.toContain("alpha79");
    expect(await p.getByRole("button", { name: "Interrupt" }).count()).toBe(0);

    await send(p, "another long story");
    await p.getByText("beta2", { exact: false }).waitFor();
    await p.getByRole("button", { name: "Interrupt" }).click();
    await expect.poll(() => ends.count(), { timeout: 15_000 }).toBe(2);
    expect(await ends.nth(1).textContent()).toContain("interrupted by user");
    await p.screenshot({ path: join(SCREENSHOTS, "interrupted.png") });

    await send(p, "and now briefly");
    await p.getByText("Back to normal.").waitFor();
    await expect.poll(() => ends.count()).toBe(3);
    expect(await ends.nth(2).textContent()).toContain("completed");
  });
});
