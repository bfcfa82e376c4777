import type { AnyUse } from "./use.js";
import { afterCallNotes } from "./uses/after-call-notes.js";
import { askUser } from "./uses/ask-user.js";
import { attention } from "./uses/attention.js";
import { checkSelect } from "./uses/check-select.js";
import { completionClaim } from "./uses/completion-claim.js";
import { customRulesGate, customRulesTurn } from "./uses/custom-rules.js";
import { hints } from "./uses/hints.js";
import { loopGuard } from "./uses/loop-guard.js";
import { memorySuggest } from "./uses/memory-suggest.js";
import { prefetch } from "./uses/prefetch.js";
import { planSuggest } from "./uses/plan-suggest.js";
import { pressureKeep } from "./uses/pressure-keep.js";
import { relevance } from "./uses/relevance.js";
import { reviewCall } from "./uses/review-call.js";
import { reviewSuggest } from "./uses/review-suggest.js";
import { route } from "./uses/route.js";
import { screenRequest } from "./uses/screen-request.js";
import { searchRank } from "./uses/search-rank.js";
import { sessionContext } from "./uses/session-context.js";
import { stopReminder } from "./uses/stop-reminder.js";
import { taskView } from "./uses/task-view.js";
import { turnStart } from "./uses/turn-start.js";
import { turnTone } from "./uses/turn-tone.js";
import { userSignal } from "./uses/user-signal.js";

/**
 * Every decision use, one row each: its feature name (`[experimental] decisions_<name>`),
 * its seam and its module. At a seam, On advice applies in this order. 24 features, one
 * (`custom_rules`) in two rows, one per seam it joins; the README's decision section maps
 * them to the spec's list of 21.
 */
export const USES: readonly AnyUse[] = [
  screenRequest,
  customRulesGate,
  reviewCall,
  afterCallNotes,
  prefetch,
  loopGuard,
  stopReminder,
  completionClaim,
  checkSelect,
  searchRank,
  relevance,
  pressureKeep,
  route,
  askUser,
  turnStart,
  customRulesTurn,
  userSignal,
  hints,
  sessionContext,
  taskView,
  planSuggest,
  memorySuggest,
  turnTone,
  reviewSuggest,
  attention,
];
