/**
 * What a tool call would do, as the permission gate sees it. Paths are real absolute paths
 * (the tool resolved `..`, `~` and symlinks before building the action), so `decide()` is a
 * pure function.
 */

/** One simple command of a shell command line, e.g. `npm test` in `npm test && rm -rf x`. */
export interface SimpleCommand {
  /** The words as written, quotes removed; a word with an expansion keeps its source text. */
  readonly argv: readonly string[];
  /** The command's source text. */
  readonly text: string;
}

/** A redirection such as `> out.txt` or `2>> log`. */
export interface Redirection {
  /** The operator as written: `>`, `>>`, `<`, `2>`, `&>`, `>|`, ... */
  readonly operator: string;
  /** The target as written (not resolved). */
  readonly target: string;
  /** True for every operator that writes to its target. */
  readonly writes: boolean;
}

/**
 * A shell command line split by a real parser into every simple command it would run
 * (across `&&`, `||`, `;`, `|`, newlines, `$(...)`, backticks and subshells) and every
 * redirection. `error` is set when the parser could not read the line; such a command asks.
 */
export interface ParsedCommand {
  readonly source: string;
  readonly commands: readonly SimpleCommand[];
  readonly redirections: readonly Redirection[];
  readonly error?: string;
}

/** One thing a tool call would do. A call may do several (a Verify of two checks is two commands). */
export type Action =
  | {
      readonly kind: "read";
      readonly paths: readonly string[];
      /**
       * The file read is a regular file with more than one hard link (found by the tool). Its
       * other names are not known, and one of them may be a file the rules keep out (a link
       * to `~/.ssh/id_rsa` made inside the project), so such a read asks unless a rule matches
       * it under its own name (deny and ask rules as always, or an allow rule), or in bypass.
       */
      readonly hardLinked?: boolean;
    }
  | { readonly kind: "write"; readonly paths: readonly string[] }
  | {
      readonly kind: "command";
      readonly command: ParsedCommand;
      readonly cwd: string;
      /**
       * Where the paths the line names really lead, found by the tool (see `commandPaths`):
       * keys as `commandPaths` lists them, values with symlinks (dangling ones too) followed.
       * Both the written and the real path must pass every check.
       */
      readonly realPaths?: ReadonlyMap<string, string>;
      /**
       * Paths (as `commandPaths` lists them, or where they really lead) of existing regular
       * files with more than one hard link, found by the tool. Writing one also writes its
       * other names, which nobody knows, so such a write counts as a write to a place known
       * only at run time: it asks in every mode but bypass, and the sandbox cannot vouch for it.
       */
      readonly hardLinked?: ReadonlySet<string>;
    }
  | { readonly kind: "network"; readonly url: string; readonly domain: string }
  | {
      readonly kind: "mcp";
      readonly server: string;
      readonly tool: string;
      /** A read the server's rules decide but plan mode lets run (listing and reading resources). */
      readonly readOnly?: boolean;
    }
  | { readonly kind: "agent"; readonly agentType: string }
  /** The Skill tool loading one skill (`Skill(name)` rules). */
  | { readonly kind: "skill"; readonly name: string }
  | { readonly kind: "askUser" }
  | { readonly kind: "none" };

/** The kind of an action. */
export type ActionKind = Action["kind"];
