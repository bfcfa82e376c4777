import { link, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, loginProject, resultsOf } from "../harness.js";

// Issue 16, items 4 and 5, end to end: the session's own rules and gate.
let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("file tools against the session's gate", () => {
  it("Grep and Glob leave out what the settings' Read deny rules cover", async () => {
    h = await harness({
      files: {
        ...loginProject,
        ".env": "API_KEY=SECRET-ENV\n",
        "notes.txt": "SECRET-OK\n",
        "secrets/key.txt": "SECRET-DIR\n",
      },
      script: [],
      userSettings:
        '[permissions]\ndeny = ["Read(./.env)", "Read(~/.ssh/**)", "Read(./secrets/**)"]\n',
      // The search of the home folder is outside the project: the user allows it once.
      approve: () => ({ type: "allowOnce" }),
    });
    await mkdir(join(h.home, ".ssh"));
    await writeFile(join(h.home, ".ssh", "id_rsa"), "SECRET-KEY\n");
    h.model.push(
      reply.toolCalls([
        { name: "Grep", input: { pattern: "SECRET", glob: ".env", output_mode: "content" } },
        { name: "Grep", input: { pattern: "SECRET", output_mode: "content", glob: "*" } },
        { name: "Grep", input: { pattern: "SECRET", path: h.home, glob: "**" } },
        { name: "Glob", input: { pattern: "**/*.txt" } },
      ]),
      reply.text("done"),
    );
    await h.session.run("find secrets");
    const texts = resultsOf(h, 1).map((r) => JSON.stringify(r.content));
    expect(texts).toHaveLength(4);
    expect(texts.join("\n")).not.toMatch(/SECRET-ENV|SECRET-DIR|id_rsa|key\.txt/);
    expect(texts[1]).toContain("SECRET-OK");
    expect(texts[0]).toContain("left out");
    expect(texts[3]).toContain("notes.txt");
  }, 30_000);

  it("in acceptEdits, a write through a dangling symlink or to a hard-linked file asks", async () => {
    const asked: string[] = [];
    h = await harness({
      files: loginProject,
      script: [],
      overrides: { mode: "acceptEdits" },
      approve: (request) => {
        asked.push(request.title);
        // Reading a hard-linked file asks too (issue 38, item 25): this one the user allows.
        return request.toolName === "Read" ? { type: "allowOnce" } : { type: "deny" };
      },
    });
    const repo = h.repo;
    const keys = join(h.home, "authorized_keys");
    await symlink(keys, repo.path("keys.txt"));
    await writeFile(join(h.home, "shared.txt"), "v1\n");
    await link(join(h.home, "shared.txt"), repo.path("shared.txt"));
    h.model.push(
      reply.toolCalls([
        { name: "Write", input: { file_path: repo.path("keys.txt"), content: "attacker key\n" } },
        { name: "Read", input: { file_path: repo.path("shared.txt") } },
        { name: "Write", input: { file_path: repo.path("new.txt"), content: "v2\n" } },
      ]),
      reply.toolCalls([
        {
          name: "Edit",
          input: { file_path: repo.path("shared.txt"), old_string: "v1", new_string: "v2" },
        },
      ]),
      reply.text("done"),
    );
    await h.session.run("write");
    expect(asked).toEqual(["Write keys.txt", "Read shared.txt", "Edit shared.txt"]);
    await expect(readFile(keys)).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(h.home, "shared.txt"), "utf8")).toBe("v1\n");
    expect(await repo.read("new.txt")).toBe("v2\n");
  }, 30_000);
});
