import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

let h: Harness | undefined;
let outside: string | undefined;
afterEach(async () => {
  await h?.dispose();
  if (outside) await rm(outside, { recursive: true, force: true });
  h = undefined;
  outside = undefined;
});

async function systemPromptOf(options: { trusted: boolean; allow: boolean }): Promise<string> {
  outside = await realpath(await mkdtemp(join(tmpdir(), "zeng-outside-")));
  await writeFile(join(outside, "notes.md"), "Notes from outside the project.");
  const settings = options.allow
    ? `[permissions]\nallow = ["Read(/${outside}/**)"]\n`
    : '[appearance]\ntheme = "dark"\n';
  h = await harness({
    files: {
      "AGENTS.md": `Project rules. @${outside}/notes.md`,
      ".z-engine/settings.toml": settings,
    },
    script: [reply.text("ok")],
    trusted: options.trusted,
  });
  await h.session.run("hello");
  const request = h.model.requests[0];
  return (request?.system ?? []).map((s) => s.text).join("\n");
}

describe("instruction imports through the engine's read gate", () => {
  it("never imports a file outside an untrusted project, even with an allow rule", async () => {
    const system = await systemPromptOf({ trusted: false, allow: true });
    expect(system).toContain("Project rules.");
    expect(system).not.toContain("Notes from outside");
    expect(system).toContain(`[import @${outside}/notes.md refused: outside the project]`);
  });

  it("imports it in a trusted project when the Read gate allows it, and refuses it when the gate asks", async () => {
    const allowed = await systemPromptOf({ trusted: true, allow: true });
    expect(allowed).toContain("Project rules. Notes from outside the project.");
    await h?.dispose();
    h = undefined;
    const asked = await systemPromptOf({ trusted: true, allow: false });
    expect(asked).not.toContain("Notes from outside");
    expect(asked).toContain("refused: outside the project]");
  });
});
