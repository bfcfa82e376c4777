import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testDoors } from "../test-support/doors.js";
import { discoverAgents } from "./discover.js";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("host agents (SessionOverrides.agents)", () => {
  it("come ahead of a file of the same name; a name that is not plain is a problem", async () => {
    dir = await mkdtemp(join(tmpdir(), "host-agents-"));
    await mkdir(join(dir, ".claude", "agents"), { recursive: true });
    await writeFile(
      join(dir, ".claude", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: from the file\n---\nFile prompt.\n",
    );
    const { types, problems } = await discoverAgents({
      projectRoot: dir,
      files: testDoors(dir),
      hostAgents: {
        reviewer: { description: "from the host", prompt: " Host prompt. ", tools: ["Read"] },
        helper: { description: "any tools", prompt: "Help.", tools: ["*"], model: "haiku" },
        "../escape": { description: "bad", prompt: "x" },
      },
    });
    expect(types.get("reviewer")).toMatchObject({
      source: "host",
      definition: { description: "from the host", prompt: "Host prompt.", tools: ["Read"] },
    });
    expect(types.get("helper")?.definition).toMatchObject({ tools: undefined, model: "haiku" });
    expect(types.has("../escape")).toBe(false);
    expect(problems).toEqual([{ path: "agents.../escape", error: "not a plain name" }]);
  });
});
