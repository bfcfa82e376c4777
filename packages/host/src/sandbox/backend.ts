import type { SandboxProfile } from "./profile.js";

/** A program to run inside the sandbox. */
export interface SandboxCommand {
  readonly program: string;
  readonly args: readonly string[];
  /** The folder it starts in. */
  readonly cwd: string;
}

/** The command line that runs a {@link SandboxCommand} confined. */
export interface WrappedCommand {
  readonly program: string;
  readonly args: readonly string[];
  /** Call once after the process has exited: undoes what `wrap` prepared on disk, if anything. */
  release(): void;
}

/**
 * An operating-system sandbox. `wrap` is synchronous and may prepare small things on disk
 * (placeholders for protected paths); it throws a `HostError` (`sandboxUnavailable`) when
 * it cannot. A host may supply its own backend.
 */
export interface SandboxBackend {
  /** `bubblewrap`, `seatbelt`, or a host's own name. */
  readonly name: string;
  wrap(command: SandboxCommand, profile: SandboxProfile): WrappedCommand;
}
