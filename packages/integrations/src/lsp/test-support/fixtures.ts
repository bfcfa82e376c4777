import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The integrations package's node_modules/.bin, where the test servers are installed. */
export const SERVER_BIN = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../../node_modules/.bin",
);

/** An environment whose PATH finds the test servers (process.env is left alone). */
export function serverEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...process.env, PATH: `${SERVER_BIN}${delimiter}${process.env.PATH ?? ""}`, ...extra };
}

/** An environment whose PATH finds nothing but the system's tools. */
export function bareEnv(): Record<string, string | undefined> {
  return { ...process.env, PATH: "/usr/bin:/bin" };
}

/** A temporary project with the given files; `cleanup` removes it. */
export async function project(files: Record<string, string>) {
  const root = await realpath(await mkdtemp(join(tmpdir(), "zeng-lsp-")));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return {
    root,
    path: (p: string) => join(root, p),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** A small TypeScript project: `greet` defined in one file, used in another. */
export const TS_FILES: Record<string, string> = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: { strict: true, target: "es2022", module: "nodenext" },
    include: ["src"],
  }),
  "src/greet.ts": 'export function greet(name: string): string {\n  return "hello " + name;\n}\n',
  "src/shapes.ts":
    "export interface Shape {\n  area(): number;\n}\n\nfunction square(n: number): number {\n  return n * n;\n}\n\nexport class Square implements Shape {\n  area(): number {\n    return square(2);\n  }\n}\n",
  "src/main.ts":
    'import { greet } from "./greet.js";\n\nexport const message: string = greet("world");\nconsole.log(greet("again"));\n',
};

/** The wrapper that delays a real server's diagnostics (test-servers/slow-wrapper.mjs). */
export const SLOW_WRAPPER = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../../test-servers/slow-wrapper.mjs",
);

/** The pids of every process in a process group (Linux /proc), e.g. a server and its tsserver. */
export async function groupMembers(pgid: number): Promise<number[]> {
  const { readdir, readFile } = await import("node:fs/promises");
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // Fields after the command name (in parentheses): state ppid pgrp ...
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(rest[2]) === pgid) pids.push(Number(entry));
  }
  return pids;
}
