import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtureRepo, reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { send, spawnBin, startFixture, sharedBrowser } from "./web-harness.js";

// Projects and sessions: the sidebar's folders from the stored sessions with real titles,
// last outcome, cost and time; empty sessions hidden; a new session in the server's folder,
// a recent one or a picked one (folders only); errors in words; a missing key said at once.

const { cleanup, page } = sharedBrowser();

describe("projects and sessions", { timeout: 90_000 }, () => {
  it("lists folders and their sessions, hides empty ones, and starts sessions from the start screen", async () => {
    const other = await createFixtureRepo({ files: { "b.txt": "b\n" } });
    cleanup.push(() => other.dispose());
    const f = await startFixture({
      files: { "a.txt": "a\n" },
      script: [reply.text("the other folder's answer"), reply.text("first answer")],
    });
    cleanup.push(() => f.dispose());
    // Stored sessions: one with a turn in the other folder, one empty in this one.
    let titled!: () => void;
    const title = new Promise<void>((resolve) => {
      titled = resolve;
    });
    const done = await f.engine.createSession(other.root, {
      onEvent: (e) => e.event.type === "titleChanged" && titled(),
    });
    await done.run("a question in the other folder");
    await title;
    await done.close();
    const empty = await f.engine.createSession(f.repo.root);
    await empty.close();

    const p = await page();
    await p.goto(f.server.url);
    const projects = p.getByTestId("projects");
    const otherName = other.root.split("/").at(-1) ?? "";
    const otherProject = projects.getByRole("region", { name: `Project ${otherName}` });
    await otherProject.waitFor();
    const item = otherProject.getByTestId("sidebar-session");
    expect(await item.count()).toBe(1);
    // The title the fast model gave, the outcome, the cost and when.
    await expect.poll(() => item.textContent()).toContain("Fix the login bug");
    expect(await item.textContent()).toMatch(/\$0\.00 · (just now|\d+ min ago) · completed/);
    // The empty session is not listed.
    const repoName = f.repo.root.split("/").at(-1) ?? "";
    expect(await projects.getByRole("region", { name: `Project ${repoName}` }).count()).toBe(0);

    // A new session in the server's folder, then one in a recent folder from the sidebar.
    await p.getByRole("button", { name: `New session in ${repoName}` }).click();
    await p.getByLabel("Message").waitFor();
    await send(p, "hello here");
    await p.getByText("first answer").waitFor();
    await expect
      .poll(() => projects.getByRole("region", { name: `Project ${repoName}` }).count())
      .toBe(1);
    await otherProject.getByRole("button", { name: `New session in ${otherName}` }).click();
    await p.getByLabel("Message").waitFor();
    await expect.poll(() => p.getByTestId("header-folder").getAttribute("title")).toBe(other.root);
  });

  it("picks a folder from the server's listing (folders only) and says in words why a folder cannot be used", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n", "sub/deeper/c.txt": "c\n", "secret.txt": "top secret\n" },
      script: [],
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await p.goto(f.server.url);
    await p.getByRole("button", { name: /Choose a folder/ }).click();
    const picker = p.getByTestId("folder-picker");
    await picker.waitFor();
    await picker.getByLabel("Folder path").fill(f.repo.root);
    await picker.getByRole("button", { name: "Go" }).click();
    await picker.getByRole("button", { name: "sub" }).click();
    await picker.getByRole("button", { name: "deeper" }).waitFor();
    // Only folders are listed: no file name, no content.
    expect(await picker.textContent()).not.toContain("secret");
    expect(await picker.textContent()).not.toContain("c.txt");
    await picker.getByRole("button", { name: /^Start a session in/ }).click();
    await p.getByLabel("Message").waitFor();
    await expect
      .poll(() => p.getByTestId("header-folder").getAttribute("title"))
      .toBe(join(f.repo.root, "sub"));

    // The listing over HTTP holds folder names only.
    const listing = await p.evaluate(
      async ({ token, path }) => {
        const r = await fetch(`/api/folders?path=${encodeURIComponent(path)}`, {
          headers: { "x-zeng-token": token },
        });
        return r.json();
      },
      { token: f.server.token, path: f.repo.root },
    );
    expect(JSON.stringify(listing)).not.toContain("secret");
    expect(listing.folders.map((x: { name: string }) => x.name)).toEqual(["sub"]);

    await p.goto(f.server.url);
    const typed = p.getByLabel("New session in folder");
    await typed.fill(join(f.repo.root, "nope"));
    await p.getByRole("button", { name: "Start", exact: true }).click();
    await expect
      .poll(() => p.getByTestId("start-error").textContent())
      .toBe(`that folder does not exist: ${join(f.repo.root, "nope")}`);
    await typed.fill(join(f.repo.root, "a.txt"));
    await p.getByRole("button", { name: "Start", exact: true }).click();
    await expect
      .poll(() => p.getByTestId("start-error").textContent())
      .toBe(`${join(f.repo.root, "a.txt")} is a file, not a folder`);
    expect(await p.getByTestId("start-error").textContent()).not.toContain("ENOENT");
  });

  it("says on every screen when no key is found, and the bin says so when it starts", async () => {
    const f = await startFixture({
      files: { "a.txt": "a\n" },
      script: [],
      warning: "no API key for api.anthropic.com: set ZENGINE_API_KEY",
    });
    cleanup.push(() => f.dispose());
    const p = await page();
    await p.goto(f.server.url);
    await expect
      .poll(() => p.getByTestId("server-warning").textContent())
      .toContain("no API key for api.anthropic.com");

    const home = await mkdtemp(join(tmpdir(), "zeng-web-key-"));
    cleanup.push(() => rm(home, { recursive: true, force: true }));
    await mkdir(join(home, "project"));
    await writeFile(join(home, "project", "a.txt"), "a\n");
    const child = spawnBin(home, join(home, "project"));
    cleanup.push(async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    });
    const stderr = await new Promise<string>((resolve, reject) => {
      let text = "";
      child.stderr?.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes("\n")) resolve(text);
      });
      child.once("exit", (code) => reject(new Error(`zeng-web exited with ${code}: ${text}`)));
    });
    expect(stderr).toContain("zeng-web: warning: no API key for api.anthropic.com");
  });
});
