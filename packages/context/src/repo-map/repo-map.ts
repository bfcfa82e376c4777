import { type RepoMapFocus, rankDefinitions } from "./rank.js";
import { type RenderedMap, renderMap } from "./render.js";
import type { FileTags } from "./tags.js";

/** Default size of the map, in tokens (`context.repo_map_tokens`). */
export const DEFAULT_REPO_MAP_TOKENS = 1000;

/**
 * The repo map of indexed files: definitions ranked for the focus, rendered within
 * `tokens` (0 gives an empty map). Deterministic for the same files and focus. Never throws.
 */
export function renderRepoMap(
  files: ReadonlyMap<string, FileTags>,
  options: { readonly tokens: number; readonly focus?: RepoMapFocus },
): RenderedMap {
  if (options.tokens <= 0) return { text: "", tokens: 0, files: 0, definitions: 0 };
  return renderMap(rankDefinitions(files, options.focus), options.tokens);
}
