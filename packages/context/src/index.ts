/**
 * @z-engine/context: what the model sees. Everything exported here is public API. All of it
 * works on transcripts as data (protocol messages); the engine wires it into a round.
 */

// System prompt sections
export type { EnvironmentInfo, SkillSummary, SystemSectionsInput } from "./system-sections.js";
export {
  buildSystemSections,
  renderEnvironment,
  renderSkillsSection,
  SYSTEM_SECTION_ORDER,
} from "./system-sections.js";

// Instruction files, imports and rules
export type {
  DiscoverOptions,
  InstructionCandidate,
  InstructionFile,
  InstructionSet,
} from "./instructions/discover.js";
export {
  discoverInstructions,
  instructionCandidates,
  instructionScope,
  foldersDownTo,
  renderInstructions,
} from "./instructions/discover.js";
export type { InstructionFs } from "./instructions/fs.js";
export { MAX_INSTRUCTION_FILE_BYTES } from "./instructions/fs.js";
export { matchesGlob } from "./instructions/glob.js";
export type { ExpandedText, ImportContext, ImportLimits } from "./instructions/imports.js";
export { expandImports } from "./instructions/imports.js";
export type { InstructionScope } from "./instructions/scope.js";
export type { Rule } from "./instructions/rules.js";
export { parseRule } from "./instructions/rules.js";
export type { InstructionTrackerOptions } from "./instructions/tracker.js";
export { InstructionTracker } from "./instructions/tracker.js";

// Reminders
export type { Reminder } from "./reminders.js";
export {
  appendReminders,
  filesChangedReminder,
  jobFinishedReminder,
  ReminderQueue,
  reminderBlock,
  todoNudgeReminder,
} from "./reminders.js";

// Requests
export type { BuildRequestInput } from "./request.js";
export { buildRequest } from "./request.js";
export { IMAGE_PLACEHOLDER, replaceImages } from "./images.js";
export { cacheMarksFor } from "./cache-marks.js";
export { INTERRUPTED_RESULT_TEXT, makeWellFormed } from "./well-formed.js";

// Token estimation
export type { EstimatedRequest, TokenEstimator, TokenEstimatorOptions } from "./tokens.js";
export { createTokenEstimator } from "./tokens.js";

// Context pressure: tool-result clearing and compaction
export type {
  ClearedToolResults,
  ToolResultClearingOptions,
  ToolResultClearingPlan,
} from "./clearing.js";
export { clearToolResults, planToolResultClearing } from "./clearing.js";
export type { SplitOptions } from "./split.js";
export { findSplitPoint, legalSplitPoints } from "./split.js";
export type {
  BeforeCompactResult,
  CompactFailureStage,
  CompactionPlan,
  CompactOptions,
  CompactResult,
} from "./compact.js";
export { compact } from "./compact.js";
export { describeDropped, renderTranscript } from "./transcript-text.js";

// Repo map
export type { SkipReason } from "./repo-map/file-filter.js";
export { MAX_MAP_FILE_BYTES } from "./repo-map/file-filter.js";
export type { MapLanguage } from "./repo-map/languages.js";
export { languageOf, RepoMapGrammarError } from "./repo-map/languages.js";
export type { RankedDefinition, RepoMapFocus } from "./repo-map/rank.js";
export { rankDefinitions } from "./repo-map/rank.js";
export type { RenderedMap } from "./repo-map/render.js";
export { mapTokens, REPO_MAP_HEADER, renderMap } from "./repo-map/render.js";
export type { MapSnapshot } from "./repo-map/map-snapshot.js";
export {
  loadMapSnapshot,
  mapPaths,
  mapSnapshotOf,
  saveMapSnapshot,
  withoutFiles,
} from "./repo-map/map-snapshot.js";
export type { IndexUpdate, RepoIndexOptions } from "./repo-map/repo-index.js";
export { RepoIndex } from "./repo-map/repo-index.js";
export type { ParseJob, ParseResult, TagParser } from "./repo-map/parse-jobs.js";
export { parseHere } from "./repo-map/parse-jobs.js";
export type {
  RepoMapBuild,
  RepoMapBuilderOptions,
  RepoMapRequest,
  RepoMapThread,
} from "./repo-map/repo-map-builder.js";
export {
  defaultWorkerScript,
  RepoMapBuilder,
  WORKER_FROM_PATHS,
  WORKER_IDLE_MS,
} from "./repo-map/repo-map-builder.js";
export { DEFAULT_REPO_MAP_TOKENS, renderRepoMap } from "./repo-map/repo-map.js";
export type { Definition, DefinitionKind, FileTags } from "./repo-map/tags.js";
