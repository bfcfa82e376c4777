import type { AnyUse } from "./use.js";
import { afterCallNotes } from "./uses/after-call-notes.js";
import { attention } from "./uses/attention.js";
import { checkSelect } from "./uses/check-select.js";
import { completionClaim } from "./uses/completion-claim.js";
import { reviewCall } from "./uses/review-call.js";
import { route } from "./uses/route.js";
import { screenRequest } from "./uses/screen-request.js";
import { stopReminder } from "./uses/stop-reminder.js";
import { turnTone } from "./uses/turn-tone.js";

/**
 * Every decision use, one row each: its feature name (`[experimental] decisions_<name>`),
 * its seam and its module. At a seam, On advice applies in this order.
 */
export const USES: readonly AnyUse[] = [
  screenRequest,
  reviewCall,
  afterCallNotes,
  stopReminder,
  completionClaim,
  checkSelect,
  route,
  turnTone,
  attention,
];
