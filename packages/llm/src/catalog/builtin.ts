import type { ModelInfo } from "./model-info.js";

type Row = [
  id: string,
  context: number,
  output: number,
  input: number,
  out: number,
  read: number,
  write: number,
];

// Prices in USD per million tokens as published by the providers; used only when neither the
// cached catalog nor models.json knows a model. Dated: prefer the catalog. Within a family,
// newest first (latestBuiltinModel relies on it).
const ROWS: Row[] = [
  ["claude-sonnet-5-5", 1_000_000, 128_000, 2, 10, 0.2, 2.5],
  ["claude-sonnet-5", 1_000_000, 128_000, 2, 10, 0.2, 2.5],
  ["claude-opus-5-5", 1_000_000, 128_000, 4, 20, 0.4, 5],
  ["claude-opus-5", 1_000_000, 128_000, 5, 25, 0.5, 6.25],
  ["claude-opus-4-5", 200_000, 64_000, 5, 25, 0.5, 6.25],
  ["claude-opus-4-1", 200_000, 32_000, 15, 75, 1.5, 18.75],
  ["claude-opus-4-0", 200_000, 32_000, 15, 75, 1.5, 18.75],
  ["claude-sonnet-4-5", 200_000, 64_000, 3, 15, 0.3, 3.75],
  ["claude-sonnet-4-0", 200_000, 64_000, 3, 15, 0.3, 3.75],
  ["claude-3-7-sonnet-latest", 200_000, 64_000, 3, 15, 0.3, 3.75],
  ["claude-haiku-4-5", 200_000, 64_000, 1, 5, 0.1, 1.25],
  ["claude-3-5-haiku-latest", 200_000, 8_192, 0.8, 4, 0.08, 1],
  ["gpt-5", 400_000, 128_000, 1.25, 10, 0.125, 1.25],
  ["gpt-5-mini", 400_000, 128_000, 0.25, 2, 0.025, 0.25],
  ["gpt-5-nano", 400_000, 128_000, 0.05, 0.4, 0.005, 0.05],
  ["gpt-4.1", 1_047_576, 32_768, 2, 8, 0.5, 2],
  ["gpt-4.1-mini", 1_047_576, 32_768, 0.4, 1.6, 0.1, 0.4],
  ["gpt-4o", 128_000, 16_384, 2.5, 10, 1.25, 2.5],
  ["gpt-4o-mini", 128_000, 16_384, 0.15, 0.6, 0.075, 0.15],
  ["o3", 200_000, 100_000, 2, 8, 0.5, 2],
  ["o4-mini", 200_000, 100_000, 1.1, 4.4, 0.275, 1.1],
];

const ALIASES: Record<string, string> = {
  "claude-opus-4": "claude-opus-4-0",
  "claude-sonnet-4": "claude-sonnet-4-0",
};

const TABLE = new Map<string, ModelInfo>(
  ROWS.map(([id, context, output, input, out, read, write]) => [
    id,
    {
      id,
      contextWindow: context,
      outputLimit: output,
      cost: { input, output: out, cacheRead: read, cacheWrite: write },
      source: "builtin",
    },
  ]),
);

/**
 * The built-in facts for a model, or undefined. Matches the id exactly, after a
 * `provider/` prefix, and without a trailing date (`claude-sonnet-4-5-20250929`).
 */
export function builtinModel(model: string): ModelInfo | undefined {
  const bare = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  const undated = bare.replace(/-\d{8}$/, "").replace(/\./g, "-");
  for (const id of [bare, undated, ALIASES[undated] ?? ""]) {
    const hit = TABLE.get(id) ?? TABLE.get(id.replace(/-(\d)-(\d)$/, "-$1.$2"));
    if (hit) return { ...hit, id: model };
  }
  return undefined;
}

/**
 * The newest built-in model id whose name has `family` as a word (`opus`, `sonnet`, `haiku`,
 * `gpt`), or undefined: what a family alias like Claude Code's `model: sonnet` stands for when
 * nothing else names a model of that family.
 */
export function latestBuiltinModel(family: string): string | undefined {
  const word = new RegExp(`(^|-)${family.toLowerCase().replace(/[^a-z0-9]/g, "")}(-|$)`);
  return ROWS.find(([id]) => word.test(id))?.[0];
}

/**
 * The built-in table's ids for a models.dev provider key (`anthropic`: the Claude models,
 * `openai`: the GPT and o-series models), newest first within a family; empty for others.
 */
export function builtinModelIds(provider: string): string[] {
  const ids = ROWS.map(([id]) => id);
  if (provider === "anthropic") return ids.filter((id) => id.startsWith("claude-"));
  if (provider === "openai") return ids.filter((id) => /^(gpt-|o\d)/.test(id));
  return [];
}
