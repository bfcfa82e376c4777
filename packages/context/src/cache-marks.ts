import type { CacheMark, ModelMessage, SystemSection } from "@z-engine/protocol";

/**
 * The cache breakpoints of a request: the last cacheable system section, the tool list
 * (when there are tools) and the last two user messages, in that order. Provider-neutral:
 * the model clients translate or ignore them. Never throws.
 */
export function cacheMarksFor(
  system: readonly SystemSection[],
  toolCount: number,
  messages: readonly ModelMessage[],
): CacheMark[] {
  const marks: CacheMark[] = [];
  for (let i = system.length - 1; i >= 0; i--) {
    if (system[i]?.cacheable) {
      marks.push({ target: "system", index: i });
      break;
    }
  }
  if (toolCount > 0) marks.push({ target: "tools" });
  const users: number[] = [];
  for (let i = messages.length - 1; i >= 0 && users.length < 2; i--) {
    if (messages[i]?.role === "user") users.push(i);
  }
  for (const index of users.reverse()) marks.push({ target: "message", index });
  return marks;
}
