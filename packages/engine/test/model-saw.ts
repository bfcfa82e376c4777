import type { Harness } from "./harness.js";

/** Everything the main and the fast model were sent, as one string (to look for a secret in). */
export function everythingSent(h: Harness): string {
  return JSON.stringify([h.model.requests, h.fast.requests]);
}

/** Every notice the session raised, one message a line. */
export function noticeText(h: Harness): string {
  return h.recorder
    .ofType("notice")
    .map((n) => n.message)
    .join("\n");
}
