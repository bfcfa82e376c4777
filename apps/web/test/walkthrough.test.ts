import { access, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { part, reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { newSession, SCREENSHOTS, send, startFixture, sharedBrowser } from "./web-harness.js";

// The walkthrough in a real browser: a batch of two asks answered in reverse order from the
// page, a streamed markdown answer, a denial with feedback, then a rewind of code and
// conversation.

const { cleanup, page } = sharedBrowser();

describe("web walkthrough", { timeout: 90_000 }, () => {
  it("answers a batch's approvals in any order, streams the answer, denies with feedback and rewinds", async () => {
    const f = await startFixture({
      files: { "login.js": "export const ok = true;\n" },
      script: [],
    });
    cleanup.push(() => f.dispose());
    const notes = join(f.repo.root, "notes.md");
    f.model.push(
      reply.of(
        part.thinking("The user wants notes and a listing."),
        part.text("I will write the notes and list the folder."),
        part.toolCall("Write", { file_path: notes, content: "# Notes\n" }, "call-write"),
        part.toolCall("Bash", { command: "ls > listing.txt" }, "call-bash"),
      ),
      reply.text(
        "Done. Here is the check:\n\n```js\nconst answer = 42; // the answer\n```\n\n- **notes.md** written",
      ),
      reply.toolCall("Bash", { command: "rm notes.md" }, { id: "call-rm" }),
      reply.text("Understood, I kept the notes."),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "Write notes and list the folder");

    const cards = p.getByTestId("approval");
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(2);
    await p.screenshot({ path: join(SCREENSHOTS, "approvals.png") });
    // The second ask first: Bash once, then Write always in this chat with its suggested rule.
    const bash = cards.filter({ hasText: "ls > listing.txt" });
    await bash.getByRole("button", { name: "Allow once" }).click();
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(1);
    const write = cards.filter({ hasText: "Write" });
    const rule = await write.getByLabel("Rule to allow").inputValue();
    expect(rule).not.toBe("");
    await write.getByRole("button", { name: "Always in this chat" }).click();

    await p.getByTestId("turn-end").first().waitFor();
    await expect(readFile(notes, "utf8")).resolves.toBe("# Notes\n");
    await access(join(f.repo.root, "listing.txt"));
    await p.locator(".tok-kw", { hasText: "const" }).first().waitFor();
    await p.locator("details.thinking").first().waitFor();
    expect(await p.locator("details.thinking").first().getAttribute("open")).toBeNull();
    const tools = p.getByTestId("tool");
    expect(await tools.count()).toBe(2);
    expect(await p.locator("details.tool.status-ok").count()).toBe(2);
    await p.getByTestId("tool").filter({ hasText: "Write" }).locator("summary").click();
    await p.locator(".diff").first().waitFor();
    await p.screenshot({ path: join(SCREENSHOTS, "walkthrough.png") });

    // A denial with feedback reaches the model.
    await send(p, "Remove the notes");
    await cards.first().waitFor();
    await cards.first().getByLabel("Feedback with deny").fill("keep the notes, please");
    await cards.first().getByRole("button", { name: "Deny" }).click();
    await expect.poll(() => p.getByTestId("turn-end").count(), { timeout: 15_000 }).toBe(2);
    const last = JSON.stringify(f.model.requests.at(-1)?.messages.at(-1));
    expect(last).toContain("keep the notes, please");
    await access(notes);

    // Rewind code and conversation to before the first message: the file goes, the turns too.
    await p.getByTestId("user-message").first().getByRole("button", { name: "Rewind…" }).click();
    await p
      .getByTestId("rewind-dialog")
      .getByRole("button", { name: "Code and conversation" })
      .click();
    await p.getByTestId("divider").waitFor();
    await expect.poll(() => p.getByTestId("user-message").count(), { timeout: 15_000 }).toBe(0);
    await expect(access(notes)).rejects.toThrow();
    await p.screenshot({ path: join(SCREENSHOTS, "rewound.png") });
  });
});

describe("cross-site use from a browser", { timeout: 90_000 }, () => {
  it("refuses the page with a wrong token and a foreign page's requests", async () => {
    const f = await startFixture({ files: { "a.txt": "a\n" }, script: [] });
    cleanup.push(() => f.dispose());
    const p = await page();
    const wrong = await p.goto(f.server.url.replace(/token=.*/, "token=guess"));
    expect(wrong?.status()).toBe(401);
    // A page of another origin (another port of the same host) tries the API with the token.
    const other = createServer((_, res) => res.end("<html><body>elsewhere</body></html>"));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    cleanup.push(() => new Promise<void>((resolve) => other.close(() => resolve())));
    await p.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
    const outcome = await p.evaluate(
      async ({ port, token, folder }) => {
        try {
          const r = await fetch(`http://127.0.0.1:${port}/api/sessions`, {
            method: "POST",
            headers: { "x-zeng-token": token, "content-type": "application/json" },
            body: JSON.stringify({ folder }),
          });
          return `status ${r.status}`;
        } catch (e) {
          return `refused: ${(e as Error).message}`;
        }
      },
      { port: f.server.port, token: f.server.token, folder: f.repo.root },
    );
    expect(outcome).toMatch(/^refused/);
    expect(await f.engine.listSessions()).toEqual([]);
  });
});
