import type { EventSink } from "../journal/journal.js";
import type { DecisionHost } from "./session-hub.js";
import { scoreNotice } from "./stop-seam.js";

/**
 * `sink`, with each warning or error notice also passed to the attention seam
 * (`scoreNotice`, in the background) once `core()` gives the built session. Never throws.
 */
export function noticeAttention(sink: EventSink, core: () => DecisionHost | undefined): EventSink {
  return (envelope) => {
    sink(envelope);
    const e = envelope.event;
    const session = e.type === "notice" ? core() : undefined;
    try {
      if (e.type === "notice" && session) scoreNotice(session, e, envelope.turnId);
    } catch {
      // The seam abstains: the notice has reached the host already.
    }
  };
}
