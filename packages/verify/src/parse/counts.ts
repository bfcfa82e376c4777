import type { TestCounts } from "@z-engine/protocol";
import {
  bunTestParser,
  denoTestParser,
  jestParser,
  mochaParser,
  nodeTestParser,
  vitestParser,
} from "./javascript.js";
import { gradleParser, surefireParser } from "./jvm.js";
import { ctestParser, dotnetTestParser } from "./native.js";
import type { TestCountParser } from "./parser.js";
import { goTestParser, gotestsumParser } from "./go.js";
import { pytestParser } from "./python.js";
import { cargoTestParser, nextestParser } from "./rust.js";
import { cleanOutput } from "./text.js";

/**
 * Every built-in parser, in the order output is sniffed: the most distinctive summaries
 * first, so that a looser pattern never claims another runner's output.
 */
export const TEST_COUNT_PARSERS: readonly TestCountParser[] = [
  nextestParser,
  cargoTestParser,
  vitestParser,
  jestParser,
  nodeTestParser,
  bunTestParser,
  denoTestParser,
  mochaParser,
  gotestsumParser,
  goTestParser,
  surefireParser,
  gradleParser,
  dotnetTestParser,
  ctestParser,
  pytestParser,
];

export interface ParseTestCountsOptions {
  /** The command that produced the output; a parser whose command pattern matches is tried first. */
  readonly command?: string;
  /** Parsers to use instead of the built-in ones (e.g. the built-ins plus a project's own). */
  readonly parsers?: readonly TestCountParser[];
}

/**
 * Test counts from a runner's output: terminal escapes are removed, the parser matched to
 * the command is tried first, then every parser in order; the first that finds a summary
 * wins. Returns null when no parser recognises the output. Never throws.
 */
export function parseTestCounts(
  output: string,
  options: ParseTestCountsOptions = {},
): TestCounts | null {
  const text = cleanOutput(output);
  const parsers = options.parsers ?? TEST_COUNT_PARSERS;
  const command = options.command;
  const matched = command === undefined ? [] : parsers.filter((p) => p.command.test(command));
  for (const parser of [...matched, ...parsers.filter((p) => !matched.includes(p))]) {
    const counts = parser.parse(text);
    if (counts !== null) return counts;
  }
  return null;
}
