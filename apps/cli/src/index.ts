/**
 * @z-engine/cli: the `zeng` command line (its binary is dist/zeng.cjs, which imports dist/main.js for every command but `-p`). The library surface
 * is only what its tests and hosts that wrap the CLI need: the argument parser and the
 * exit-code mapping.
 */

// Argument parsing
export type { Command, HeadlessArgs, Mode, OutputFormat, ParsedArgs } from "./args.js";
export {
  /** Parses argv (without node and the script); never throws: bad usage is `{ ok: false, error }`. */
  parseArgs,
  OUTPUT_FORMATS,
  PERMISSION_MODES,
} from "./args.js";

// Exit codes
export type { Outcome } from "./exit-codes.js";
export {
  /** 0 completed, 1 failed or budget exhausted, 2 bad usage, 130 cancelled. */
  EXIT,
  /** The exit code of a turn's outcome. */
  exitCodeFor,
} from "./exit-codes.js";
