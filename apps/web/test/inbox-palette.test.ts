import type { ImageBlock } from "@z-engine/protocol";
import { part, reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { newSession, send, startFixture, sharedBrowser } from "./web-harness.js";

// The Inbox (what waits in any open session, answered from one place), the command palette
// (Ctrl/Cmd+K), image attach (pick, paste, drop, sent as image blocks) and the two themes.

const { cleanup, page } = sharedBrowser();

// A 1x1 PNG.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

describe("the Inbox", { timeout: 90_000 }, () => {
  it("gathers the approvals of two sessions and answers them from one place", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    f.model.push(
      reply.toolCall("Bash", { command: "echo one > one.txt" }),
      reply.toolCall("Bash", { command: "echo two > two.txt" }),
      reply.text("first done"),
      reply.text("second done"),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "write one");
    await p.getByTestId("approval").waitFor();
    await p.getByRole("button", { name: "New session", exact: true }).click();
    await p
      .getByRole("button", { name: /^New session in / })
      .first()
      .click();
    await p.getByLabel("Message").waitFor();
    await send(p, "write two");
    await p.getByTestId("approval").waitFor();
    await expect.poll(() => p.getByTestId("inbox-count").textContent()).toBe("2");
    await p.getByTestId("nav-inbox").click();
    const items = p.getByTestId("inbox-item");
    await expect.poll(() => items.count()).toBe(2);
    await items.filter({ hasText: "echo one" }).getByRole("button", { name: "Allow once" }).click();
    await items.filter({ hasText: "echo two" }).getByLabel("Feedback with deny").fill("not now");
    await items.filter({ hasText: "echo two" }).getByRole("button", { name: "Deny" }).click();
    await p.getByText("Nothing is waiting on you.").waitFor();
    await expect.poll(() => p.getByTestId("inbox-count").count()).toBe(0);
    await expect.poll(() => f.model.requests.length).toBe(4);
    expect(JSON.stringify(f.model.requests.map((r) => r.messages.at(-1)))).toContain("not now");
  });

  it("answers a question waiting in a session from the Inbox", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    const question = {
      question: "Which database?",
      header: "Storage",
      options: [{ label: "SQLite" }, { label: "Postgres" }],
      multiSelect: false,
    };
    f.model.push(
      reply.of(part.toolCall("AskUserQuestion", { questions: [question] })),
      reply.text("Postgres it is."),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "Set up storage");
    await p.getByTestId("question").waitFor();
    await expect.poll(() => p.getByTestId("inbox-count").textContent()).toBe("1");
    await p.getByTestId("nav-inbox").click();
    const item = p.getByTestId("inbox-item");
    await item.getByTestId("question").getByLabel("Postgres").check();
    await item.getByRole("button", { name: "Answer" }).click();
    await p.getByText("Nothing is waiting on you.").waitFor();
    await expect.poll(() => f.model.requests.length).toBe(2);
    expect(JSON.stringify(f.model.requests[1]?.messages.at(-1))).toContain("Postgres");
  });
});

describe("the command palette", { timeout: 90_000 }, () => {
  it("opens with Ctrl+K, finds a session by its title and opens it, switches the theme and a panel", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n" },
      script: [reply.text("palette answer")],
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    await send(p, "hello");
    await p.getByText("palette answer").waitFor();
    const id = new URL(p.url()).searchParams.get("session");
    await p.goto(f.server.url);
    await p.getByTestId("home").waitFor();
    await p.keyboard.press("Control+k");
    const palette = p.getByTestId("palette");
    await palette.waitFor();
    await p.keyboard.type("fix login");
    await palette.getByRole("option", { name: /Fix the login bug/ }).waitFor();
    await p.keyboard.press("Enter");
    await p.getByText("palette answer").waitFor();
    expect(new URL(p.url()).searchParams.get("session")).toBe(id);
    await p.keyboard.press("Control+k");
    await p.keyboard.type("theme dark");
    await p.keyboard.press("Enter");
    await expect.poll(() => p.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    // Chosen over the system's light preference.
    await p.emulateMedia({ colorScheme: "light" });
    expect(await p.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      "rgb(27, 27, 26)",
    );
    await p.keyboard.press("Control+k");
    await p.keyboard.type("context");
    await p.keyboard.press("Enter");
    await p.getByTestId("context-panel").waitFor();
    // A slash command goes to the composer with its name.
    await p.keyboard.press("Control+k");
    await p.keyboard.type("/cost");
    // The session's slash commands load after the palette opens: Enter waits for the item.
    await palette.getByRole("option", { name: /\/cost/, selected: true }).waitFor();
    await p.keyboard.press("Enter");
    await expect.poll(() => p.getByLabel("Message").inputValue()).toBe("/cost ");
    await p.keyboard.press("Control+k");
    await p.keyboard.press("Escape");
    await expect.poll(() => palette.count()).toBe(0);
  });
});

describe("images and themes", { timeout: 90_000 }, () => {
  it("sends picked and pasted images as image blocks, and refuses a file that is no image", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n" },
      script: [reply.text("I see two images.")],
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await newSession(p, f);
    await p.getByTestId("image-picker").setInputFiles({
      name: "dot.png",
      mimeType: "image/png",
      buffer: Buffer.from(PNG, "base64"),
    });
    await p
      .getByTestId("image-picker")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await p
      .getByRole("alert")
      .filter({ hasText: "notes.txt is not a PNG, JPEG, GIF or WebP image" })
      .waitFor();
    // Paste a second one into the box.
    await p.getByLabel("Message").focus();
    await p.evaluate((png) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "pasted.png", { type: "image/png" }));
      document.activeElement?.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, PNG);
    await expect
      .poll(() => p.getByRole("list", { name: "Attached images" }).locator("li").count())
      .toBe(2);
    await send(p, "what do you see?");
    await p.getByText("I see two images.").waitFor();
    const user = f.model.requests[0]?.messages.find((m) => m.role === "user");
    const images = (user?.content ?? []).filter((b): b is ImageBlock => b.type === "image");
    expect(images.map((i) => [i.mediaType, i.data])).toEqual([
      ["image/png", PNG],
      ["image/png", PNG],
    ]);
    // The prompt shows them.
    expect(await p.getByTestId("user-message").locator("img").count()).toBe(2);
    // A dropped image joins the next prompt.
    await p.getByTestId("composer").evaluate((el, png) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
      el.dispatchEvent(
        new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }),
      );
    }, PNG);
    await p
      .getByRole("list", { name: "Attached images" })
      .getByRole("img", { name: "dropped.png" })
      .waitFor();
  });

  it("follows the system's theme, light or dark", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    const p = await page();
    const background = () => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await p.emulateMedia({ colorScheme: "light" });
    await p.goto(f.server.url);
    await p.getByTestId("home").waitFor();
    const light = await background();
    await p.emulateMedia({ colorScheme: "dark" });
    const dark = await background();
    expect(light).toBe("rgb(247, 247, 245)");
    expect(dark).toBe("rgb(27, 27, 26)");
  });
});
