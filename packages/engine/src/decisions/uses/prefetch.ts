import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { FileLook } from "../seams.js";
import type { DecisionUse } from "../use.js";

/** Paths of one result shown to the model at most, and files read ahead at most. */
export const MAX_LISTED = 50;
export const MAX_PREFETCH = 2;
/** Characters of each file read ahead at most. */
export const PREFETCH_CHARS = 8_000;

const Picks = lazily(() => z.object({ files: z.array(z.string()).max(10) }));

const INSTRUCTIONS =
  'A coding agent searched the project and got the file paths below. Which of them (at most 2) will it most likely read next for the user\'s request? Reply with JSON only: {"files": ["<path>", ...]}; an empty list when none clearly stands out.';

/** The file paths a Grep or Glob result lists (a line each; Grep's `path:line:` lines too). */
export function listedPaths(text: string): string[] {
  const out = new Set<string>();
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.length === 0 || line.length > 1_000 || /^[[(]/.test(line)) continue;
    const path = line.match(/^(.+?):\d+(?:[:-]|$)/)?.[1] ?? line;
    if (/\s{2,}|^(No |Found )/.test(path) || !/[./]/.test(path)) continue;
    out.add(path);
  }
  return [...out];
}

/**
 * prefetch (seam: after a call): after a Grep or Glob result (not an error) listing two or
 * more paths, the fast model names at most two of the first fifty that the agent will likely
 * read next. Each one the Read rules allow without asking, that the agent has not read as it
 * is now, and that was not read ahead this turn, is read (8,000 characters at most) for the
 * next request. Only listed paths count; anything else abstains.
 */
export const prefetch: DecisionUse<"afterCall"> = {
  name: "prefetch",
  seam: "afterCall",
  module: "uses/prefetch.ts",
  async decide(input, ctx) {
    if (input.isError || (input.toolName !== "Grep" && input.toolName !== "Glob")) return undefined;
    const look = input.look;
    if (!look) return undefined;
    const listed = listedPaths(input.text).slice(0, MAX_LISTED);
    if (listed.length < 2) return undefined;
    const ask = `Request:\n${(input.prompt ?? "").slice(0, 2_000)}\n\n${input.toolName} listed:\n${listed.join("\n")}`;
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, ask, Picks, ctx.signal);
    const offered = new Set(listed);
    const picked = [...new Set(answer?.files ?? [])].filter((f) => offered.has(f));
    const turn = ctx.turnId ?? "";
    const prefetched: FileLook[] = [];
    for (const path of picked.slice(0, MAX_PREFETCH)) {
      const read = await look(path, PREFETCH_CHARS);
      if (!read) continue;
      const key = `${turn}\0${read.realPath}`;
      if (ctx.memory.has(key) || (await input.seen?.(read.realPath))) continue;
      ctx.memory.set(key, true);
      prefetched.push(read);
    }
    return prefetched.length > 0 ? { notes: [], prefetched } : undefined;
  },
  describe: (advice) => `${advice.prefetched?.length ?? 0} file(s) read ahead`,
};
