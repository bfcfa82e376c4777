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

/** A trusted project with both servers' files, the server laid out as npm installs it. */
async function project(): Promise<Harness> {
  const x = await harness({
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
  await mkdir(x.repo.path("node_modules/.bin"), { recursive: true });
  for (const name of ["typescript", "typescript-language-server"])
    await symlink(await realpath(join(MODULES, name)), x.repo.path(`node_modules/${name}`));
  await symlink(
    "../typescript-language-server/lib/cli.mjs",
    x.repo.path("node_modules/.bin/typescript-language-server"),
  );
  return x;
}

/** Writes the settings file; resolves with the one `settings.changed` notice it gives. */
async function edit(x: Harness, text: string) {
  const changed = x.recorder.waitFor(
    "notice",
    { code: "settings.changed" },
    { fromIndex: x.recorder.envelopes.length, timeoutMs: 20_000 },
  );
  await writeFile(x.repo.path(SETTINGS), text);
  return changed;
}

/** Both servers started (a hover in each file); their pids. */
async function bothStarted(x: Harness): Promise<{ alpha: number; beta: number }> {
  await hover(x, "src/a.ts");
  await hover(x, "src/b.mts");
  const before = await serversIn(x.repo.root);
  const [alpha] = pidOf(before, "alpha");
  const [beta] = pidOf(before, "beta@1");
  if (alpha === undefined || beta === undefined) throw new Error("both servers should run");
  return { alpha, beta };
}

const changedNotices = (x: Harness) =>
  x.recorder.ofType("notice").filter((n) => n.code === "settings.changed");

describe("live settings: language servers", () => {
  it("an edited [lsp.servers] entry restarts that server alone, named in the one notice", async () => {
    h = await project();
    const x = h;
    const { alpha, beta } = await bothStarted(x);
    const notice = await edit(x, lspToml("2"));
    expect(notice.message).toContain("lsp.servers.beta");
    expect(notice.message).not.toContain("lsp.servers.alpha");
    expect(notice.message).toContain("Language servers restarted on next use: beta.");
    expect(await waitForProcessExit(beta, 10_000)).toBe(true);
    expect(pidOf(await serversIn(x.repo.root), "alpha")).toEqual([alpha]);

    // The next .mts file starts the new entry's server; alpha still runs as it was.
    await hover(x, "src/b.mts");
    const after = await serversIn(x.repo.root);
    expect(pidOf(after, "alpha")).toEqual([alpha]);
    expect(pidOf(after, "beta@1")).toEqual([]);
    expect(pidOf(after, "beta@2")).toHaveLength(1);
    expect(changedNotices(x)).toHaveLength(1);
  }, 120_000);

  it("[lsp] enabled = false stops every server, names them, and the tool says it is off", async () => {
    h = await project();
    const x = h;
    const { alpha, beta } = await bothStarted(x);
    const notice = await edit(x, `[lsp]\nenabled = false\n\n${lspToml("1")}`);
    expect(notice.message).toContain("lsp.enabled");
    // Not "restarted on next use": with `[lsp]` off nothing starts them again.
    expect(notice.message).toContain("Language servers stopped: alpha, beta.");
    expect(notice.message).not.toContain("restarted");
    expect(await waitForProcessExit(alpha, 10_000)).toBe(true);
    expect(await waitForProcessExit(beta, 10_000)).toBe(true);
    x.model.push(
      reply.toolCall("LSP", { operation: "hover", file_path: x.repo.path("src/a.ts"), line: 1 }),
      reply.text("off"),
    );
    await x.session.run("hover again");
    expect(lastResult(x)?.isError).toBe(true);
    expect(JSON.stringify(lastResult(x)?.content)).toContain("turned off");
    expect([...(await serversIn(x.repo.root)).keys()]).toEqual([]);
    expect(changedNotices(x)).toHaveLength(1);
  }, 120_000);
});
