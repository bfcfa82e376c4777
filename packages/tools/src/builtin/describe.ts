import { loadToolDescription } from "../external.js";

/** The model-facing description of a built-in tool, from @z-engine/prompts. */
export function describe(name: string, fallback: string): string {
  return loadToolDescription(name, fallback);
}
