import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { readFile } from "node:fs/promises";
import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { turnsRecords, variedAnswer } from "./log-records.js";
import { newSession, SCREENSHOTS, sharedBrowser, startFixture } from "./web-harness.js";

// A 10,000-event session stays a small DOM (the transcript is virtualised) and scrolls by
// keyboard; at 360 px the page is usable with the keyboard alone, focus visible.

const { cleanup, page } = sharedBrowser();

/** A stored session of one real turn, then `records` written straight into its log; its id. */
async function storedSession(records: string) {
  const f = await startFixture({ files: { "a.txt": "a\n" }, script: [reply.text("first")] });
  cleanup.push(() => f.dispose());
  const session = await f.engine.createSession(f.repo.root);
  await session.run("first");
  await session.close();
  await appendFile(join(f.dataDir, "sessions", session.id, "log.jsonl"), records);
  return { f, id: session.id };
}

describe("scale and keyboard", { timeout: 90_000 }, () => {
  it("opens a 10,000-event session with a small DOM and scrolls it by keyboard", async () => {
    const { f, id } = await storedSession(turnsRecords(2_500, Date.now()));

    const p = await page({ width: 1280, height: 900 });
    await p.goto(`${f.server.url}&session=${id}`);
    await p.getByText("answer number 2499").waitFor();
    const rows = await p.locator("[data-key]").count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(200);
    await p.getByTestId("transcript").focus();
    await p.keyboard.press("Home");
    await p.getByText("answer number 0", { exact: true }).waitFor();
    expect(await p.locator("[data-key]").count()).toBeLessThan(200);
  });

  it("opens a 1,000-message session of rows of varied heights at its last answer", async () => {
    const { f, id } = await storedSession(turnsRecords(499, Date.now(), variedAnswer));
    const p = await page({ width: 1280, height: 900 });
    await p.goto(`${f.server.url}&session=${id}`);
    // Rows that left the window were once measured at no size: the list then swung between
    // the top and the bottom and never showed the end.
    await p.getByText("Answer number 498:").waitFor({ timeout: 20_000 });
    await p.getByTestId("transcript").focus();
    await p.keyboard.press("Home");
    await p.getByText("Here is step 0, with the code:").waitFor({ timeout: 20_000 });
    await p.keyboard.press("End");
    await p.getByText("Answer number 498:").waitFor({ timeout: 20_000 });
  });

  it("works with the keyboard alone at 360 px, with a visible focus ring", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n" },
      script: [reply.text("Small screen answer.")],
    });
    cleanup.push(() => f.dispose());
    const p = await page({ width: 360, height: 740 });
    await newSession(p, f);
    const reached = await (async () => {
      for (let i = 0; i < 30; i++) {
        await p.keyboard.press("Tab");
        if (await p.evaluate(() => document.activeElement?.tagName === "TEXTAREA")) return true;
      }
      return false;
    })();
    expect(reached).toBe(true);
    const outline = await p.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return getComputedStyle(el).outlineStyle;
    });
    expect(outline).not.toBe("none");
    await p.keyboard.type("Hello from the keyboard");
    await p.keyboard.press("Enter");
    await p.getByText("Small screen answer.").waitFor();
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(360);
    await p.screenshot({ path: join(SCREENSHOTS, "narrow.png") });
    // Slash completion from the keyboard.
    await p.keyboard.type("/mo");
    // The catalog's order: /model, then /mode.
    await p.getByRole("option", { name: /^\/mode / }).waitFor();
    await p.keyboard.press("ArrowDown");
    await p.keyboard.press("Tab");
    await p.keyboard.type("plan");
    await p.keyboard.press("Enter");
    await expect
      .poll(() => p.getByLabel("Mode", { exact: true }).inputValue(), { timeout: 15_000 })
      .toBe("plan");
  });

  it("answers an approval card with the keyboard alone at 360 px, focus visible, no sideways scroll", async () => {
    const long = `export const settings = { ${Array.from({ length: 20 }, (_, i) => `key${i}: ${i}`).join(", ")} };\n`;
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    f.model.push(
      reply.toolCall("Write", { file_path: f.repo.path("settings.js"), content: long }),
      reply.text("Wrote the settings."),
    );
    const p = await page({ width: 360, height: 740 });
    await newSession(p, f);
    await p.getByLabel("Message").focus();
    await p.keyboard.type("Write the settings file");
    await p.keyboard.press("Enter");
    const card = p.getByTestId("approval");
    await card.waitFor();
    // Nothing is wider than the screen, even the card's long diff line.
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const focusedName = () =>
      p.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el?.closest("[data-testid=approval]") ? (el.textContent ?? "") : "";
      });
    let reached = false;
    for (let i = 0; i < 60 && !reached; i++) {
      await p.keyboard.press("Tab");
      reached = (await focusedName()) === "Allow once";
    }
    expect(reached).toBe(true);
    const ring = await p.evaluate(() => {
      const style = getComputedStyle(document.activeElement as HTMLElement);
      return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
    });
    expect(ring.style).not.toBe("none");
    expect(ring.width).toBeGreaterThanOrEqual(2);
    await p.screenshot({ path: join(SCREENSHOTS, "keyboard-approval.png") });
    await p.keyboard.press("Enter");
    await p.getByText("Wrote the settings.").waitFor();
    expect(await card.count()).toBe(0);
    expect(await readFile(f.repo.path("settings.js"), "utf8")).toBe(long);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
