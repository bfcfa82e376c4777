import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LspOperation } from "@z-engine/protocol";
import { plainFileReader } from "@z-engine/testkit";
import { childEnvironment } from "@z-engine/host";
import { afterEach, describe, expect, it } from "vitest";
import { SessionLsp } from "./hub.js";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const signal = new AbortController().signal;

async function hub(enabled: boolean, trusted: boolean) {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-hub-")));
  const file = join(dir, "a.ts");
  await writeFile(file, "export const a: number = 1;\n");
  const lsp = new SessionLsp({
    root: dir,
    files: plainFileReader(),
    env: () => childEnvironment({ PATH: "/usr/bin:/bin" }),
    trusted: () => trusted,
    settings: () => ({ enabled, servers: {} }),
  });
  return { lsp, file };
}

describe("SessionLsp", () => {
  it("answers with the reason when turned off or untrusted, and adds nothing after writes", async () => {
    for (const [enabled, trusted, reason] of [
      [false, true, "Language servers are turned off (`[lsp] enabled = false`)."],
      [
        true,
        false,
        "Language servers run only in trusted projects (they run programs). Trust the project to use LSP.",
      ],
    ] as const) {
      const { lsp, file } = await hub(enabled, trusted);
      const out = await lsp.query({ operation: "hover", filePath: file, line: 1 }, signal);
      expect(out).toMatchObject({ isError: true, content: [{ type: "text", text: reason }] });
      expect(await lsp.diagnosticsAfterWrite(file, signal)).toBeNull();
      expect(lsp.status()).toEqual([]);
      await rm(dir as string, { recursive: true, force: true });
    }
  });

  it("refuses an unknown operation and a missing server with clear errors", async () => {
    const { lsp, file } = await hub(true, true);
    // A caller without types (JavaScript, a host's own port) can still send any name.
    const format = "format" as LspOperation;
    const unknown = await lsp.query({ operation: format, filePath: file }, signal);
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]).toMatchObject({
      text: expect.stringMatching(/^Unknown LSP operation format; one of definition, /),
    });
    const missing = await lsp.query({ operation: "hover", filePath: file, line: 1 }, signal);
    expect(missing.content[0]).toMatchObject({
      text: "No language server is installed for .ts files (looked for typescript-language-server in the project's node_modules/.bin and on PATH).",
    });
    await lsp.close();
  });
});
