import { extname } from "node:path";

/** How to start one language server and which files it serves. */
export interface LspServerSpec {
  /** A short name: `typescript`, `pyright`, or the key of `[lsp.servers.<name>]`. */
  readonly name: string;
  /** The program: a bare name (looked up in the project's node_modules/.bin, then PATH) or a path. */
  readonly command: string;
  readonly args: readonly string[];
  /** Extensions served, lower case with the dot: `.ts`. */
  readonly extensions: readonly string[];
  /** Sent as `initializationOptions` in `initialize`. */
  readonly initializationOptions?: unknown;
  /** Extra environment variables for the server's process. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Ask tsserver for a file's diagnostics directly (typescript-language-server's
   * `typescript.tsserverRequest` command) instead of waiting for its debounced push (at least
   * 300 ms after each change).
   */
  readonly tsserverDiagnostics?: boolean;
  /**
   * The server reports when it has loaded the project (rust-analyzer's
   * `experimental/serverStatus` with `quiescent`): it counts as busy until it says so.
   */
  readonly reportsStatus?: boolean;
}

/** A `[lsp.servers.<name>]` entry as the settings give it (extensions with or without the dot). */
export interface ConfiguredLspServer {
  readonly command: string;
  readonly args?: readonly string[];
  readonly extensions: readonly string[];
  readonly initialization_options?: unknown;
  readonly env?: Readonly<Record<string, string>>;
}

const TS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const C_EXTENSIONS = [".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".m", ".mm"];

/**
 * The built-in servers, in the order they are tried for a file: basedpyright before
 * pyright (the first one installed wins).
 */
export const BUILTIN_LSP_SERVERS: readonly LspServerSpec[] = [
  {
    name: "typescript",
    command: "typescript-language-server",
    args: ["--stdio"],
    extensions: TS_EXTENSIONS,
    // One tsserver: the syntax-only one answers during project load with half answers
    // (an import instead of the definition). No automatic typings download.
    initializationOptions: {
      tsserver: { useSyntaxServer: "never" },
      disableAutomaticTypingAcquisition: true,
    },
    tsserverDiagnostics: true,
  },
  {
    name: "basedpyright",
    command: "basedpyright-langserver",
    args: ["--stdio"],
    extensions: [".py", ".pyi"],
  },
  {
    name: "pyright",
    command: "pyright-langserver",
    args: ["--stdio"],
    extensions: [".py", ".pyi"],
  },
  {
    name: "rust-analyzer",
    command: "rust-analyzer",
    args: [],
    extensions: [".rs"],
    // Its answers are empty until it has loaded the crate graph (cargo metadata): it says
    // when it is done.
    reportsStatus: true,
  },
  {
    name: "gopls",
    command: "gopls",
    args: [],
    extensions: [".go"],
    // Workspace symbols whose names hold the query (its default fuzzy match answers
    // `greet` with 100 runtime internals such as gcResetMarkState), from the project's
    // packages where gopls knows symbolScope (0.12 on); hovers without pkg.go.dev links.
    // Progress while it diagnoses: its pushes carry no version, so a push of the files as
    // they were (the initial load's) can come after a change; while busy it is not taken.
    initializationOptions: {
      symbolMatcher: "CaseInsensitive",
      symbolScope: "workspace",
      linksInHover: false,
      verboseWorkDoneProgress: true,
    },
  },
  { name: "clangd", command: "clangd", args: [], extensions: C_EXTENSIONS },
];

/** Normalises an extension to lower case with a leading dot. */
function normaliseExtension(ext: string): string {
  const lower = ext.toLowerCase();
  return lower.startsWith(".") ? lower : `.${lower}`;
}

/**
 * The servers to consider: configured ones first (a configured name replaces a built-in of
 * the same name, keeping its `reportsStatus`: `[lsp.servers.rust-analyzer]` with another
 * command is still rust-analyzer), then the built-ins. Never throws.
 */
export function lspServerSpecs(
  configured: Readonly<Record<string, ConfiguredLspServer>>,
): LspServerSpec[] {
  const builtin = (name: string) => BUILTIN_LSP_SERVERS.find((b) => b.name === name);
  const own: LspServerSpec[] = Object.entries(configured).map(([name, s]) => ({
    name,
    ...(builtin(name)?.reportsStatus ? { reportsStatus: true } : {}),
    command: s.command,
    args: [...(s.args ?? [])],
    extensions: s.extensions.map(normaliseExtension),
    ...(s.initialization_options !== undefined
      ? { initializationOptions: s.initialization_options }
      : {}),
    ...(s.env ? { env: { ...s.env } } : {}),
  }));
  const taken = new Set(own.map((s) => s.name));
  return [...own, ...BUILTIN_LSP_SERVERS.filter((s) => !taken.has(s.name))];
}

/** The specs that serve a file, in order of preference; empty when none does. */
export function specsForFile(specs: readonly LspServerSpec[], path: string): LspServerSpec[] {
  const ext = extname(path).toLowerCase();
  if (ext === "") return [];
  return specs.filter((s) => s.extensions.includes(ext));
}

const LANGUAGE_IDS: Readonly<Record<string, string>> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
  ".py": "python",
  ".pyi": "python",
  ".rs": "rust",
  ".go": "go",
  ".c": "c",
  ".h": "c",
  ".m": "objective-c",
  ".mm": "objective-cpp",
};

/** The LSP language id of a file (`typescript`, `python`, ...); C++ for the other C-family extensions. */
export function languageIdOf(path: string): string {
  const ext = extname(path).toLowerCase();
  if (LANGUAGE_IDS[ext]) return LANGUAGE_IDS[ext];
  if (C_EXTENSIONS.includes(ext)) return "cpp";
  return ext.slice(1) || "plaintext";
}
