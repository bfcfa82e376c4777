import { access } from "node:fs/promises";
import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { newSession, send, startFixture, sharedBrowser } from "./web-harness.js";

// The fixes from the trial (issue 44), each against what the page showed before: a Bash
// row's output twice, a failed turn's stray cursor and grey error, the rewind bar far from
// its message with "Keep" for cancel, the prompt not given back and the badge stale after a
// rewind, checkpoints as plain text, a truncated deny field, the cost panel's repeated numbers
// and missing cache figures.

const { cleanup, page } = sharedBrowser();
const bypass = { permissions: { mode: "bypass" } };

const occurrences = (text: string, word: string) => text.split(word).length - 1;

describe("the trial's fixes", { timeout: 90_000 }, () => {
  it("shows a Bash call's output once", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [], settings: bypass });
    cleanup.push(() => f.dispose());
    f.model.push(
      reply.toolCall("Bash", { command: "printf 'OUT-%s\\n' LINE" }),
      reply.text("Printed."),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "print");
    await p.getByText("Printed.").waitFor();
    const row = p.getByTestId("tool").filter({ hasText: "Bash" });
    await row.locator("summary").click();
    await row.getByText("OUT-LINE").first().waitFor();
    expect(occurrences((await row.textContent()) ?? "", "OUT-LINE")).toBe(1);
  });

  it("ends a failed turn without a streaming cursor and says why in a visible error", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n" },
      script: [reply.error("invalidRequest", "the provider refused the key")],
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    await send(p, "hello");
    const end = p.getByTestId("turn-end");
    await end.waitFor();
    expect(await p.getByTestId("streaming").count()).toBe(0);
    const error = end.getByRole("alert");
    expect(await error.textContent()).toContain("the provider refused the key");
    const size = await error.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    expect(size).toBeGreaterThanOrEqual(14);
  });

  it("opens the rewind choice at its message, with Cancel; gives the prompt back and re-reads the badge", async () => {
    const f = await startFixture({
      files: {
        "package.json": JSON.stringify({
          name: "x",
          version: "1.0.0",
          scripts: { test: "node -e 0" },
        }),
        "a.txt": "a\n",
      },
      script: [],
      settings: bypass,
    });
    cleanup.push(() => f.dispose());
    f.model.push(
      reply.toolCall("Bash", { command: "echo b > b.txt" }),
      reply.toolCall("Verify", { checks: ["npm:test"] }),
      reply.text("Verified the change."),
      reply.text("Second answer."),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "add b and verify");
    await p.getByText("Verified the change.").waitFor();
    await send(p, "a second question");
    await p.getByText("Second answer.").waitFor();
    await expect.poll(() => p.getByTestId("badge").textContent()).toBe("No code changed");
    const second = p.getByTestId("user-message").nth(1);
    await second.getByRole("button", { name: "Rewind…" }).click();
    // The choice opens at its message, and cancelling is called Cancel.
    const choice = second.getByTestId("rewind-dialog");
    await choice.waitFor();
    expect(await p.getByRole("button", { name: "Keep" }).count()).toBe(0);
    await choice.getByRole("button", { name: "Cancel" }).click();
    expect(await p.getByTestId("rewind-dialog").count()).toBe(0);
    // A rewind of the conversation puts the prompt back in the composer; the badge is re-read.
    await second.getByRole("button", { name: "Rewind…" }).click();
    await second
      .getByTestId("rewind-dialog")
      .getByRole("button", { name: "Conversation only" })
      .click();
    await expect.poll(() => p.getByLabel("Message").inputValue()).toBe("a second question");
    await expect.poll(() => p.getByTestId("badge").textContent()).toBe("Verified");
    // Rewinding the code as well: the passing run no longer matches the files.
    await p.getByTestId("user-message").first().getByRole("button", { name: "Rewind…" }).click();
    await p.getByTestId("rewind-dialog").getByRole("button", { name: "Code only" }).click();
    await expect
      .poll(() =>
        access(f.repo.path("b.txt")).then(
          () => true,
          () => false,
        ),
      )
      .toBe(false);
    await expect.poll(() => p.getByTestId("badge").textContent()).not.toBe("Verified");
  });

  it("lists checkpoints with their prompt, the files their turn changed, and actions", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [], settings: bypass });
    cleanup.push(() => f.dispose());
    f.model.push(reply.toolCall("Bash", { command: "echo b > b.txt" }), reply.text("Wrote b."));
    const p = await page();
    await newSession(p, f);
    await send(p, "write b please");
    await p.getByText("Wrote b.").waitFor();
    const checkpoint = p.getByTestId("checkpoints").getByTestId("checkpoint");
    await checkpoint.waitFor();
    expect(await checkpoint.textContent()).toContain("write b please");
    await checkpoint.locator("summary").click();
    await expect
      .poll(() => checkpoint.getByTestId("checkpoint-files").textContent())
      .toContain("b.txt");
    await checkpoint.getByRole("button", { name: "Review changes since" }).click();
    await p.getByTestId("changed-file").filter({ hasText: "b.txt" }).waitFor();
  });

  it("gives the deny feedback the card's whole width", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n" },
      script: [reply.toolCall("Bash", { command: "rm a.txt" }), reply.text("ok")],
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    await send(p, "remove a");
    const card = p.getByTestId("approval");
    await card.waitFor();
    const field = card.getByLabel("Feedback with deny");
    const [fieldBox, cardBox] = [await field.boundingBox(), await card.boundingBox()];
    expect((fieldBox?.width ?? 0) / (cardBox?.width ?? 1)).toBeGreaterThan(0.8);
    expect(await field.evaluate((el) => el.tagName)).toBe("TEXTAREA");
  });

  it("lists agents in the cost panel only when more than one spent, and shows the cache's figures", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n" },
      script: [
        reply.text("Cached answer.", {
          usage: { input: 100, output: 20, cacheRead: 1500, cacheWrite: 300 },
        }),
      ],
      settings: {
        model: { main: "m" },
        pricing: { m: { input: 1, output: 1, cache_read: 1, cache_write: 1 } },
      },
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    await send(p, "hi");
    await p.getByText("Cached answer.").waitFor();
    await expect
      .poll(() => p.getByTestId("session-cost").textContent())
      .toContain("1,920 tokens (100 in, 20 out, 1,500 cache read, 300 cache write)");
    expect(await p.getByTestId("agent-costs").count()).toBe(0);
  });
});
