import { mkdir, readdir, readFile, readlink, realpath, symlink, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolResultBlock } from "@z-engine/protocol";
import { reply, waitForProcessExit } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

// Issue 46: a settings edit restarts only the language servers whose `[lsp.servers]` entry
// changed, on the real typescript-language-server (the engine's devDependency).
const MODULES = resolve(dirname(fileURLToPath(import.meta.url)), "../../node_modules");
const SETTINGS = ".z-engine/settings.toml";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** Two servers, both typescript-language-server: `alpha` for .ts, `beta` for .mts. */
function lspToml(betaGeneration: string): string {
  const entry = (name: string, ext: string, extra: string) =>
    `[lsp.servers.${name}]\ncommand = "typescript-language-server"\nargs = ["--stdio"]\n` +
    `extensions = ["${ext}"]\nenv = { ZENG_LSP_NAME = "${name}"${extra} }\n`;
  return entry("alpha", "ts", "") + entry("beta", "mts", `, ZENG_LSP_GEN = "${betaGeneration}"`);
}

/** The language servers (not their tsservers) running in `root`, by ZENG_LSP_NAME. */
async function serversIn(root: string): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    if ((await readlink(`/proc/${entry}/cwd`).catch(() => "")) !== root) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (!cmdline.includes("typescript-language-server")) continue;
    const environ = await readFile(`/proc/${entry}/environ`, "utf8").catch(() => "");
    const vars = environ.split("\0");
    const name = vars.find((v) => v.startsWith("ZENG_LSP_NAME="))?.slice(14) ?? "?";
    const gen = vars.find((v) => v.startsWith("ZENG_LSP_GEN="))?.slice(13);
    out.set(Number(entry), gen ? `${name}@${gen}` : name);
  }
  return out;
}

const pidOf = (servers: Map<number, string>, name: string) =>
  [...servers].filter(([, n]) => n === name).map(([pid]) => pid);

function lastResult(x: Harness): ToolResultBlock | undefined {
  const last = x.model.requests.at(-1)?.messages.at(-1);
  return (last?.content ?? []).find((b): b is ToolResultBlock => b.type === "toolResult");
}

async function hover(x: Harness, file: string): Promise<void> {
  x.model.push(
    reply.toolCall("LSP", { operation: "hover", file_path: x.repo.path(file), line: 1 }),
    reply.text("hovered"),
  );
  await x.session.run(`hover ${file}`);
  expect(lastResult(x)?.isError ?? false).toBe(false);
}

describe("live settings: language servers", () => {
  it("an edited [lsp.servers] entry restarts that server alone, named in the one notice", async () => {
    h = await harness({
      files: {
        ".gitignore": "node_modules\n",
        "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true }, include: ["src"] }),
        "src/a.ts": "export const a: number = 1;\n",
        "src/b.mts": "export const b: string = 'b';\n",
        [SETTINGS]: lspToml("1"),
      },
      script: [],
      trusted: true,
      overrides: { mode: "bypass" },
    });
    const x = h;
    await mkdir(x.repo.path("node_modules/.bin"), { recursive: true });
    for (const name of ["typescript", "typescript-language-server"])
      await symlink(await realpath(join(MODULES, name)), x.repo.path(`node_modules/${name}`));
    await symlink(
      "../typescript-language-server/lib/cli.mjs",
      x.repo.path("node_modules/.bin/typescript-language-server"),
    );
    await hover(x, "src/a.ts");
    await hover(x, "src/b.mts");
    const before = await serversIn(x.repo.root);
    const [alpha] = pidOf(before, "alpha");
    const [beta] = pidOf(before, "beta@1");
    expect([alpha, beta].every((p) => typeof p === "number")).toBe(true);

    const changed = x.recorder.waitFor(
      "notice",
      { code: "settings.changed" },
      { fromIndex: x.recorder.envelopes.length, timeoutMs: 20_000 },
    );
    await writeFile(x.repo.path(SETTINGS), lspToml("2"));
    const notice = await changed;
    expect(notice.message).toContain("lsp.servers.beta");
    expect(notice.message).not.toContain("lsp.servers.alpha");
    expect(notice.message).toContain("Language servers restarted on next use: beta.");
    expect(await waitForProcessExit(beta as number, 10_000)).toBe(true);
    expect(pidOf(await serversIn(x.repo.root), "alpha")).toEqual([alpha]);

    // The next .mts file starts the new entry's server; alpha still runs as it was.
    await hover(x, "src/b.mts");
    const after = await serversIn(x.repo.root);
    expect(pidOf(after, "alpha")).toEqual([alpha]);
    expect(pidOf(after, "beta@1")).toEqual([]);
    expect(pidOf(after, "beta@2")).toHaveLength(1);
    expect(x.recorder.ofType("notice").filter((n) => n.code === "settings.changed")).toHaveLength(
      1,
    );
  }, 120_000);
});
