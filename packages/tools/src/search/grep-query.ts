/** A Grep search, engine-neutral. */
export interface GrepQuery {
  readonly pattern: string;
  /** Absolute folder or file to search. */
  readonly searchPath: string;
  readonly isFile: boolean;
  readonly glob?: string | undefined;
  readonly type?: string | undefined;
  readonly caseInsensitive: boolean;
  readonly multiline: boolean;
  readonly mode: "content" | "files_with_matches" | "count";
  /** Context lines (content mode). */
  readonly before: number;
  readonly after: number;
}

/** One output line of a file: a match or a context line. */
export interface GrepLine {
  readonly line: number;
  readonly match: boolean;
  readonly text: string;
}

/** What an engine found in one file (absolute path). */
export interface GrepFileResult {
  readonly path: string;
  /** Content mode: the match and context lines, in order. */
  readonly lines: readonly GrepLine[];
  /** Matching lines. */
  readonly count: number;
}

/** The files with matches, or why the search could not run. */
export type GrepEngineResult =
  | { readonly ok: true; readonly files: GrepFileResult[] }
  | { readonly ok: false; readonly error: string };

const LOOKAROUND = /\(\?<?[=!]/;
const BACKREFERENCE = /\\[1-9]|\\k</;

/**
 * Rejects what ripgrep's default engine cannot run (look-around, backreferences), with the
 * same message whichever engine runs the search. Null when the pattern is acceptable.
 */
export function rejectUnsupported(pattern: string): string | null {
  if (LOOKAROUND.test(pattern) || BACKREFERENCE.test(pattern)) {
    return `Invalid regex pattern ${JSON.stringify(pattern)}: look-around and backreferences are not supported (ripgrep's regex syntax). Rewrite the pattern without them.`;
  }
  return null;
}
