import { constants } from "node:fs";
import { access, mkdir, readdir, readFile, readlink, realpath, symlink } from "node:fs/promises";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolResultBlock } from "@z-engine/protocol";
import { reply, waitForProcessExit } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

// The engine's own devDependencies hold typescript-language-server 5.3.0 and typescript 5.9.3.
const MODULES = resolve(dirname(fileURLToPath(import.meta.url)), "../../node_modules");

const files = {
  ".gitignore": "node_modules\n",
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true }, include: ["src"] }),
  "src/greet.ts": 'export function greet(name: string): string {\n  return "hello " + name;\n}\n',
  "src/main.ts":
    'import { greet } from "./greet.js";\n\nexport const message: string = greet("world");\n',
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

function resultOf(h: Harness, request: number): ToolResultBlock | undefined {
  const last = h.model.requests[request]?.messages.at(-1);
  return (last?.content ?? []).find((b): b is ToolResultBlock => b.type === "toolResult");
}

function textOf(block: ToolResultBlock | undefined): string {
  return (block?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** Processes whose working folder is `root`: the servers the session started there. */
async function processesIn(root: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => "");
    if (cwd === root) pids.push(Number(entry));
  }
  return pids;
}

/** The engine's key: a language server must never get it (issue 38, item 5). */
const KEY = "sk-zeng-lsp-0123456789abcdef";

/** A trusted TypeScript project with the server in its node_modules/.bin, and a user `[env]`. */
async function tsProject(extra: Record<string, string> = {}): Promise<Harness> {
  const made = await harness({
    files: { ...files, ...extra },
    script: [],
    trusted: true,
    overrides: { mode: "bypass" },
    extraEnv: { ZENGINE_API_KEY: KEY },
    userSettings: '[env]\nZENG_LSP_PROBE = "from-settings"\n',
  });
  // Laid out as npm installs them: the packages, and the program in node_modules/.bin.
  await mkdir(made.repo.path("node_modules/.bin"), { recursive: true });
  for (const name of ["typescript", "typescript-language-server"])
    await symlink(await realpath(join(MODULES, name)), made.repo.path(`node_modules/${name}`));
  await symlink(
    "../typescript-language-server/lib/cli.mjs",
    made.repo.path("node_modules/.bin/typescript-language-server"),
  );
  return made;
}

describe("language servers in a session", () => {
  it("answers the LSP tool and appends a type error to the Edit that made it", async () => {
    h = await tsProject();
    const p = (x: string) => (h as Harness).repo.path(x);
    h.model.push(
      reply.toolCall("Read", { file_path: p("src/main.ts") }),
      reply.toolCall("LSP", {
        operation: "definition",
        file_path: p("src/main.ts"),
        symbol: "greet",
        line: 3,
      }),
      reply.toolCall("Edit", {
        file_path: p("src/main.ts"),
        old_string: "message: string",
        new_string: "message: number",
      }),
      reply.text("done"),
    );
    await h.session.run("break the types");
    expect(textOf(resultOf(h, 2))).toBe(
      "1 definition:\nsrc/greet.ts:1:17: export function greet(name: string): string {",
    );
    expect(textOf(resultOf(h, 3))).toBe(
      [
        `Edited ${p("src/main.ts")} (+1 -1)`,
        "",
        "The language server reports errors in this file now:",
        "src/main.ts:3:14: error: Type 'string' is not assignable to type 'number'. [typescript 2322]",
      ].join("\n"),
    );
    const servers = await processesIn(h.repo.root);
    expect(servers.length).toBeGreaterThanOrEqual(2); // typescript-language-server and tsserver
    for (const pid of servers) {
      const environ = await readFile(`/proc/${pid}/environ`, "utf8");
      expect(environ).toContain("ZENGINE_HOME=");
      expect(environ).not.toContain(KEY);
      expect(environ.split("\0")).toContain("ZENG_LSP_PROBE=from-settings");
    }
    await h.session.close();
    for (const pid of servers) expect(await waitForProcessExit(pid, 5000)).toBe(true);
  }, 90_000);

  it("never quotes a line, or sends a file, the Read rules deny (issue 38: the door)", async () => {
    h = await tsProject({
      ".z-engine/settings.toml": '[permissions]\ndeny = ["Read(src/secret/**)"]\n',
      "src/secret/vault.ts": 'export const token = "SECRET-MARKER";\n',
      "src/uses.ts": 'import { token } from "./secret/vault.js";\nexport const t = token;\n',
    });
    const p = (x: string) => (h as Harness).repo.path(x);
    h.model.push(
      reply.toolCall("LSP", {
        operation: "definition",
        file_path: p("src/uses.ts"),
        symbol: "token",
        line: 2,
      }),
      reply.text("done"),
    );
    await h.session.run("where is token defined?");
    expect(textOf(resultOf(h, 1))).toBe("1 definition:\nsrc/secret/vault.ts:1:14");
    expect(JSON.stringify(h.model.requests)).not.toContain("SECRET-MARKER");
  }, 90_000);

  it("runs no server in an untrusted project", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    const p = (x: string) => (h as Harness).repo.path(x);
    h.model.push(
      reply.toolCall("LSP", { operation: "hover", file_path: p("src/main.ts"), line: 3 }),
      reply.text("done"),
    );
    await h.session.run("hover");
    const result = resultOf(h, 1);
    expect(result?.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Language servers run only in trusted projects (they run programs). Trust the project to use LSP.",
    );
  }, 30_000);
});

/** Whether a program is on this process's PATH. */
async function onPath(name: string): Promise<boolean> {
  for (const folder of (process.env.PATH ?? "").split(delimiter).filter((d) => d !== ""))
    if (
      await access(join(folder, name), constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return true;
  return false;
}

// Debian's gopls and golang-go (scripts/install-language-servers.sh installs them).
const GO_FILES = {
  "go.mod": "module example.com/hello\n\ngo 1.19\n",
  "greet.go":
    'package main\n\n// Greet says hello.\nfunc Greet(name string) string {\n\treturn "hello " + name\n}\n',
  "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(Greet("world"))\n}\n',
};
const goMissing = (await onPath("gopls")) && (await onPath("go")) ? null : "gopls or go";

if (goMissing !== null)
  describe.skip(`gopls in a session (${goMissing} is not installed; scripts/install-language-servers.sh installs them)`, () => {});
else
  describe("gopls in a session", () => {
    it("answers the LSP tool and appends a type error to the Edit that made it", async () => {
      h = await harness({
        files: GO_FILES,
        script: [],
        trusted: true,
        overrides: { mode: "bypass" },
      });
      const p = (x: string) => (h as Harness).repo.path(x);
      h.model.push(
        reply.toolCall("Read", { file_path: p("main.go") }),
        reply.toolCall("LSP", {
          operation: "definition",
          file_path: p("main.go"),
          symbol: "Greet",
          line: 6,
        }),
        // Answered once gopls has diagnosed the files it loaded (it says when it is busy).
        reply.toolCall("LSP", { operation: "diagnostics", file_path: p("main.go") }),
        reply.toolCall("Edit", {
          file_path: p("main.go"),
          old_string: 'Greet("world")',
          new_string: "Greet(42)",
        }),
        reply.text("done"),
      );
      await h.session.run("break the types");
      expect(textOf(resultOf(h, 2))).toBe(
        "1 definition:\ngreet.go:4:6: func Greet(name string) string {",
      );
      expect(textOf(resultOf(h, 3))).toBe("No diagnostics for main.go.");
      expect(textOf(resultOf(h, 4))).toBe(
        [
          `Edited ${p("main.go")} (+1 -1)`,
          "",
          "The language server reports errors in this file now:",
          "main.go:6:20: error: cannot use 42 (untyped int constant) as string value in argument to Greet [compiler IncompatibleAssign]",
        ].join("\n"),
      );
      const servers = await processesIn(h.repo.root);
      expect(servers.length).toBeGreaterThanOrEqual(1);
      await h.session.close();
      for (const pid of servers) expect(await waitForProcessExit(pid, 5000)).toBe(true);
    }, 60_000);
  });
