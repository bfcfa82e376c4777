import type { DiscoveryContext, Ecosystem, FoundCheck } from "../ecosystem.js";
import { byKind, kindOfName, SAFE_NAME } from "../ecosystem.js";
import { taskChecks } from "./tasks.js";

const CONFIGS = ["deno.json", "deno.jsonc"];

/** JSON with comments and trailing commas (deno.jsonc) to plain JSON; strings are left alone. */
export function stripJsonc(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (ch === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (ch === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : close + 1;
    } else out += ch;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

async function readTasks(ctx: DiscoveryContext, file: string): Promise<string[] | undefined> {
  const text = await ctx.read(file);
  if (text === undefined) return undefined;
  try {
    const json: unknown = JSON.parse(stripJsonc(text));
    const tasks =
      typeof json === "object" && json !== null
        ? (json as Record<string, unknown>).tasks
        : undefined;
    if (typeof tasks !== "object" || tasks === null) return [];
    return Object.keys(tasks).filter((name) => SAFE_NAME.test(name));
  } catch (error) {
    ctx.problem(file, `not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * Deno: `deno test`, `deno check .` (typecheck), `deno lint` and `deno fmt --check`, and
 * tasks named like checks as `deno task NAME`; a task replaces the built-in check of the
 * same name (a `test` task is what the project means by its tests).
 */
export const denoEcosystem: Ecosystem = {
  name: "deno",
  applies: (folder) => CONFIGS.some((n) => folder.files.has(n)),
  async discover(ctx) {
    const file = CONFIGS.find((n) => ctx.folder.files.has(n)) ?? "deno.json";
    const tasks = (await readTasks(ctx, file)) ?? [];
    const builtIn: FoundCheck[] = [
      { ecosystem: "deno", name: "test", kind: "test", command: "deno test" },
      { ecosystem: "deno", name: "check", kind: "typecheck", command: "deno check ." },
      { ecosystem: "deno", name: "lint", kind: "lint", command: "deno lint" },
      { ecosystem: "deno", name: "fmt", kind: "format", command: "deno fmt --check" },
    ];
    const fromTasks = taskChecks("deno", tasks, (n) => `deno task ${n}`, kindOfName);
    const taskNames = new Set(fromTasks.map((c) => c.name));
    return byKind([...fromTasks, ...builtIn.filter((c) => !taskNames.has(c.name))]);
  },
};
