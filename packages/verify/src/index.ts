/**
 * @z-engine/verify: evidence. Check discovery per ecosystem, test-count parsers, check
 * records through an injected runner, check selection, the verification badge and the
 * verdict of the verification modes at the stop boundary. Everything exported here is
 * public API; everything else is internal.
 */

// Discovery: build files to check definitions, never running anything.
export type { DiscoverOptions, DiscoveryProblem, DiscoveryResult } from "./discovery/discover.js";
export {
  /** Folder names discovery never enters (hidden folders are never entered either). */
  DEFAULT_IGNORED_DIRS,
  /** Finds the project's checks; see its JSDoc for ids, order and failures. */
  discoverChecks,
  /** The built-in ecosystem modules, in the order a folder's checks are listed. */
  ECOSYSTEMS,
  /** Configured checks replace discovered ones with the same id and add new ones; pure. */
  mergeChecks,
} from "./discovery/discover.js";
export type { DiscoveryContext, Ecosystem, FoundCheck } from "./discovery/ecosystem.js";
export {
  /** The check kind of a script, target or recipe name, or undefined when it is no check. */
  kindOfName,
} from "./discovery/ecosystem.js";
export type { Folder } from "./discovery/walk.js";

// Test counts
export type { ParseTestCountsOptions } from "./parse/counts.js";
export {
  /** Test counts from a runner's output, or null; never throws. */
  parseTestCounts,
  /** The built-in parsers, in sniffing order. */
  TEST_COUNT_PARSERS,
} from "./parse/counts.js";
export type { TestCountParser } from "./parse/parser.js";

// Running a check
export type {
  CheckRunner,
  CheckRunRequest,
  CheckRunResult,
  RunCheckOptions,
} from "./run.js";
export {
  /** Characters of output a record keeps inline by default (4,000). */
  DEFAULT_TAIL_CHARS,
  /** The end of an output, cut at a line, with a note of how much came before. */
  outputTail,
  /** Runs one check through the injected runner and returns its `CheckRecord`. */
  runCheck,
} from "./run.js";

// Selection
export type { AutoCheckInput, SelectOptions } from "./select.js";
export {
  /** The checks auto and strict modes run: `auto_checks`, else the selected test checks. */
  autoCheckIds,
  /** The test checks covering changed paths (nearest package), else every test check. */
  selectChecks,
} from "./select.js";

// The badge and the modes
export type { BadgeInput, BashCheckRun } from "./badge.js";
export {
  /** The turn's badge from check records only; pure. */
  assessBadge,
  /** Whether a record ran after the last change and matches the files now. */
  isFresh,
} from "./badge.js";
export type { StopVerdict, StopVerdictInput } from "./modes.js";
export {
  /** `verification.max_continuations` when unset (3). */
  DEFAULT_MAX_CONTINUATIONS,
  /** The verification verdict at the stop boundary; pure. */
  stopVerdict,
} from "./modes.js";

// Errors
export type { VerifyErrorCode } from "./errors.js";
export {
  /** Operational failures: `rootUnreadable`, `fingerprintFailed`, `aborted`; with `cause`. */
  VerifyError,
} from "./errors.js";
