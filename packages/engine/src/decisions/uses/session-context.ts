import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import { cutText } from "../file-look.js";
import type { DecisionUse } from "../use.js";

/** Project paths shown to the model at most. */
export const MAX_OFFERED_FILES = 400;
/** Files read at most, and each one's characters at most, and all of them together. */
export const MAX_CONTEXT_FILES = 3;
export const FILE_CHARS = 8_000;
export const TOTAL_CHARS = 16_000;
/** Deferred MCP tools loaded at most. */
export const MAX_LOADED_TOOLS = 5;

const Picks = lazily(() =>
  z.object({
    files: z.array(z.string()).max(20).default([]),
    tools: z.array(z.string()).max(20).default([]),
  }),
);

const INSTRUCTIONS =
  'A coding agent starts on the user\'s request below. From the project files and the MCP tools listed, name the few files it will most likely need to read (at most 3) and the tools it will most likely call (at most 5), only names from the lists. Reply with JSON only: {"files": ["<path>", ...], "tools": ["<tool name>", ...]}; empty lists when nothing clearly matters.';

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);

/** The files to offer: those sharing the most words with the request first, then in order. */
function offered(files: readonly string[], prompt: string): string[] {
  if (files.length <= MAX_OFFERED_FILES) return [...files];
  const asked = words(prompt);
  return files
    .map((f, order) => ({ f, order, n: [...words(f)].filter((w) => asked.has(w)).length }))
    .sort((a, b) => b.n - a.n || a.order - b.order)
    .slice(0, MAX_OFFERED_FILES)
    .map((x) => x.f);
}

function question(prompt: string, files: readonly string[], tools: readonly string[]): string {
  const parts = [`Request:\n${prompt.slice(0, 2_000)}`];
  if (files.length > 0) parts.push(`Project files:\n${files.join("\n")}`);
  if (tools.length > 0) parts.push(`MCP tools:\n${tools.join("\n")}`);
  return parts.join("\n\n");
}

/**
 * session_context (seam: turn start, the session's first turn of the main agent, once per
 * session): the fast model sees the request, up to 400 of the project's file paths (never
 * their text) and the deferred MCP tools' names and first lines, and names files and tools.
 * Only offered names count. Up to three files the Read rules allow without asking are read
 * through the door (8,000 characters each, 16,000 in all) into one reminder; up to five
 * deferred tools are loaded before the first request. Anything else abstains.
 */
export const sessionContext: DecisionUse<"turnStart"> = {
  name: "session_context",
  seam: "turnStart",
  module: "uses/session-context.ts",
  async decide(input, ctx) {
    if (!input.firstTurn || ctx.memory.has("asked")) return undefined;
    ctx.memory.set("asked", true);
    const files = offered((await input.projectFiles?.()) ?? [], input.prompt);
    const tools = input.deferredTools ?? [];
    if (files.length === 0 && tools.length === 0) return undefined;
    const toolLines = tools.map((t) => `- ${t.name}: ${t.description.slice(0, 120)}`);
    const ask = question(input.prompt, files, toolLines);
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, ask, Picks, ctx.signal);
    if (!answer) return undefined;
    const fileNames = new Set(files);
    const toolNames = new Set(tools.map((t) => t.name));
    const picked = [...new Set(answer.files)].filter((f) => fileNames.has(f));
    const loadTools = [...new Set(answer.tools)]
      .filter((t) => toolNames.has(t))
      .slice(0, MAX_LOADED_TOOLS);
    const texts: string[] = [];
    let left = TOTAL_CHARS;
    for (const path of picked.slice(0, MAX_CONTEXT_FILES)) {
      if (left <= 0 || !input.look) break;
      const max = Math.min(FILE_CHARS, left);
      const look = await input.look(path, max);
      if (!look) continue;
      left -= look.text.length;
      texts.push(`<file path="${path}">\n${cutText(look.text, max, look.cut)}\n</file>`);
    }
    if (texts.length === 0 && loadTools.length === 0) return undefined;
    const reminders =
      texts.length > 0 ? [`Files that may matter for this request:\n${texts.join("\n")}`] : [];
    return { reminders, ...(loadTools.length > 0 ? { loadTools } : {}) };
  },
  describe: (advice) =>
    `${advice.reminders?.length ?? 0} file reminder(s), ${advice.loadTools?.length ?? 0} tool(s) loaded`,
};
