/**
 * @z-engine/host: the machine. Processes and shells, the workspace fingerprint, checkpoints
 * in a shadow git repository, and the sandbox (bubblewrap, seatbelt). Everything exported
 * here is public API; nothing else is.
 */

// Shells and processes
export type {
  BackgroundProcess,
  CommandRequest,
  CommandResult,
  Shell,
  ShellSession,
} from "./shell.js";
export type { ShellOptions } from "./process/local-shell.js";
export { createShell } from "./process/local-shell.js";
export type { ShellSessionOptions } from "./process/shell-session.js";
export { createShellSession } from "./process/shell-session.js";
export type { EnvPolicy } from "./process/env-policy.js";
export { buildEnvironment, DEFAULT_ENV_DENY, NON_INTERACTIVE_ENV } from "./process/env-policy.js";
export { DEFAULT_MAX_OUTPUT_CHARS } from "./process/output-collector.js";

// The child-process door: every process the engine starts goes through spawnChild
export type { ChildRequest } from "./process/spawn-child.js";
export { signalGroup, spawnChild } from "./process/spawn-child.js";
export type { ChildEnvironment, ChildEnvironmentOptions } from "./process/child-env.js";
export { childEnvironment } from "./process/child-env.js";
export type { ChildFolder, ChildFolderReason } from "./process/child-folder.js";
export { neutralFolder } from "./process/child-folder.js";
export type { EnvironErasure } from "./process/initial-environ.js";
export { eraseInitialEnvironment } from "./process/initial-environ.js";
export {
  isProviderKeyVariable,
  isSecretVariable,
  SECRET_VARIABLES,
} from "./process/secret-names.js";

// Git: the door every git process the engine starts goes through
export type { GitOutput, GitRepository, GitRunOptions, UserRepository } from "./git.js";
export { GIT_TIME_LIMIT_MS, GitTimeLimit, runGit, runGitScript } from "./git.js";
export type { EngineRepository } from "./engine-repository.js";
export { GIT_NEUTRAL_CONFIG } from "./git-command.js";
export type { FoundRepository } from "./git-repository.js";
export { findGitRepository } from "./git-repository.js";
export { listRepositoryFiles } from "./git-list.js";

// The project-files door: every project-controlled file the engine reads
export type {
  ProjectFileFacts,
  ProjectFileReaderOptions,
} from "./project-files/project-file-reader.js";
export {
  createProjectFileReader,
  DEFAULT_PROJECT_FILE_BYTES,
} from "./project-files/project-file-reader.js";

// Fingerprint
export type { FingerprintOptions } from "./fingerprint.js";
export { fingerprint } from "./fingerprint.js";

// Checkpoints
export type {
  CheckpointsDisabled,
  CheckpointStore,
  CheckpointStoreOptions,
  RestoreResult,
  Snapshot,
} from "./checkpoint/store.js";
export { createCheckpointStore } from "./checkpoint/store.js";
export type { ChangeStatus, CheckpointChange } from "./checkpoint/compare.js";
export { CHECKPOINT_REF } from "./checkpoint/shadow-repo.js";

// Sandbox
export type { SandboxBackend, SandboxCommand, WrappedCommand } from "./sandbox/backend.js";
export type { SandboxProfile, SandboxProfileOptions } from "./sandbox/profile.js";
export { buildSandboxProfile, TOOL_CACHES } from "./sandbox/profile.js";
export type { BubblewrapOptions } from "./sandbox/bubblewrap.js";
export { BubblewrapSandbox } from "./sandbox/bubblewrap.js";
export { SeatbeltSandbox, seatbeltProfileText } from "./sandbox/seatbelt.js";
export type { DetectSandboxOptions, SandboxDetection } from "./sandbox/detect.js";
export { detectSandbox } from "./sandbox/detect.js";

// Errors
export type { HostErrorCode } from "./errors.js";
export { HostError } from "./errors.js";

// Worktree agents
export type {
  AgentWorktree,
  WorktreeFileChange,
  WorktreeOptions,
  WorktreeSummary,
} from "./worktree/worktree.js";
export {
  commitAgentWorktree,
  createAgentWorktree,
  removeAgentWorktree,
  WORKTREE_NAME,
} from "./worktree/worktree.js";
export type {
  ApplyResult,
  ConflictKind,
  MergeConflict,
  RefusedPath,
} from "./worktree/apply.js";
export { applyAgentCommit } from "./worktree/apply.js";
