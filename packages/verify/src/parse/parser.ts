import type { TestCounts } from "@z-engine/protocol";

/**
 * Reads test counts from one runner's output. `parse` gets output already cleaned of
 * terminal escapes (with `\n` line ends), sums every summary it finds (a monorepo run
 * prints one per package) and returns null when the output holds no summary of its kind.
 * It never throws.
 */
export interface TestCountParser {
  /** The runner, e.g. `vitest`, `cargo-test`. */
  readonly name: string;
  /** Matches a command that runs this runner directly; that parser is then tried first. */
  readonly command: RegExp;
  parse(output: string): TestCounts | null;
}
