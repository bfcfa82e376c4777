import type { AnyUse } from "./use.js";
import { afterCallNotes } from "./uses/after-call-notes.js";
import { askUser } from "./uses/ask-user.js";
import { attention } from "./uses/attention.js";
import { checkSelect } from "./uses/check-select.js";
import { completionClaim } from "./uses/completion-claim.js";
import { pressureKeep } from "./uses/pressure-keep.js";
import { relevance } from "./uses/relevance.js";
import { reviewCall } from "./uses/review-call.js";
import { route } from "./uses/route.js";
import { screenRequest } from "./uses/screen-request.js";
import { stopReminder } from "./uses/stop-reminder.js";
import { turnStart } from "./uses/turn-start.js";
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
  relevance,
  pressureKeep,
  route,
  askUser,
  turnStart,
  turnTone,
  attention,
];
