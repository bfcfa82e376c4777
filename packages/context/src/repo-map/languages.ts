import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Parser, Query } from "web-tree-sitter";
import { EXTRA_QUERIES } from "./extra-queries.js";
import type { MapLanguage } from "./map-language.js";

export type { MapLanguage } from "./map-language.js";

interface LanguageSpec {
  /** The grammar package and the wasm file inside it. */
  readonly pkg: string;
  readonly wasm: string;
  /** Grammar packages whose `queries/tags.scm` make up the language's tag query, in order. */
  readonly tags: readonly string[];
}

const SPECS: Record<MapLanguage, LanguageSpec> = {
  typescript: {
    pkg: "tree-sitter-typescript",
    wasm: "tree-sitter-typescript.wasm",
    tags: ["tree-sitter-typescript", "tree-sitter-javascript"],
  },
  tsx: {
    pkg: "tree-sitter-typescript",
    wasm: "tree-sitter-tsx.wasm",
    tags: ["tree-sitter-typescript", "tree-sitter-javascript"],
  },
  javascript: {
    pkg: "tree-sitter-javascript",
    wasm: "tree-sitter-javascript.wasm",
    tags: ["tree-sitter-javascript"],
  },
  python: {
    pkg: "tree-sitter-python",
    wasm: "tree-sitter-python.wasm",
    tags: ["tree-sitter-python"],
  },
  rust: { pkg: "tree-sitter-rust", wasm: "tree-sitter-rust.wasm", tags: ["tree-sitter-rust"] },
  go: { pkg: "tree-sitter-go", wasm: "tree-sitter-go.wasm", tags: ["tree-sitter-go"] },
};

const EXTENSIONS: Record<string, MapLanguage> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  py: "python",
  pyi: "python",
  rs: "rust",
  go: "go",
};

/** The language of a path by its extension, or null when the map does not read it. */
export function languageOf(path: string): MapLanguage | null {
  const dot = path.lastIndexOf(".");
  if (dot < 0 || dot < path.lastIndexOf("/")) return null;
  return EXTENSIONS[path.slice(dot + 1).toLowerCase()] ?? null;
}

/** A loaded grammar: a parser set to it and its tag query. */
export interface LoadedLanguage {
  readonly parser: Parser;
  readonly query: Query;
}

/** Error raised when a grammar or its query cannot be loaded (`code` `"repoMapGrammar"`). */
export class RepoMapGrammarError extends Error {
  readonly code = "repoMapGrammar";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RepoMapGrammarError";
  }
}

/**
 * Drops the predicates web-tree-sitter does not know (`#strip!`, `#select-adjacent!`,
 * `#set-adjacent!`: they only shape doc comments), and the doc-comment captures they
 * served (`(comment)* @doc .`), which the map does not use and which halve matching speed.
 */
export function stripDirectives(query: string): string {
  return query
    .replace(/\(#(?:strip|select-adjacent|set-adjacent)![^)]*\)/g, "")
    .replace(/\(comment\)\*\s*@doc\s*\./g, "");
}

const require = createRequire(import.meta.url);
const loaded = new Map<MapLanguage, Promise<LoadedLanguage>>();
let runtime: Promise<typeof import("web-tree-sitter")> | undefined;

function packageDir(pkg: string): string {
  return dirname(require.resolve(`${pkg}/package.json`));
}

/** The whole tag query of a language: its grammars' tags.scm (stripped) and ours. */
export function tagQueryText(language: MapLanguage): string {
  const spec = SPECS[language];
  const parts = spec.tags.map((pkg) =>
    stripDirectives(readFileSync(join(packageDir(pkg), "queries", "tags.scm"), "utf8")),
  );
  return [...parts, EXTRA_QUERIES[language]].join("\n");
}

async function load(language: MapLanguage): Promise<LoadedLanguage> {
  runtime ??= import("web-tree-sitter").then(async (ts) => {
    await startTreeSitter(ts.Parser);
    return ts;
  });
  const ts = await runtime;
  const spec = SPECS[language];
  // The bytes, not the path: web-tree-sitter reads a path through `import("fs/promises")`,
  // which loads Node's ES module loader into a process that needs it for nothing else.
  const grammar = await ts.Language.load(await readFile(join(packageDir(spec.pkg), spec.wasm)));
  const parser = new ts.Parser();
  parser.setLanguage(grammar);
  return { parser, query: new ts.Query(grammar, tagQueryText(language)) };
}

/**
 * The parser and tag query of a language, loaded once (web-tree-sitter and the grammar's
 * wasm are imported on first use). Rejects with {@link RepoMapGrammarError} when the grammar
 * or query cannot be loaded; a later call tries again.
 */
export function loadLanguage(language: MapLanguage): Promise<LoadedLanguage> {
  let pending = loaded.get(language);
  if (!pending) {
    pending = load(language).catch((cause: unknown) => {
      loaded.delete(language);
      throw new RepoMapGrammarError(`cannot load the ${language} grammar`, { cause });
    });
    loaded.set(language, pending);
  }
  return pending;
}

/** Where the runtime's start is kept, shared by every package that parses with tree-sitter. */
const TREE_SITTER_START = Symbol.for("z-engine.web-tree-sitter.start");

/**
 * Starts web-tree-sitter's runtime once per JS realm, whichever package asks first (the shell
 * parser does the same under the same key): two `Parser.init()` calls that overlap each make
 * a runtime, and the second replaces the first under the languages and parsers already made
 * from it. A failed start is forgotten, so a later call tries again.
 */
function startTreeSitter(parser: { init(): Promise<void> }): Promise<void> {
  const slot = parser as unknown as Record<symbol, Promise<void> | undefined>;
  const running = slot[TREE_SITTER_START];
  if (running) return running;
  const started = parser.init().catch((error: unknown) => {
    slot[TREE_SITTER_START] = undefined;
    throw error;
  });
  slot[TREE_SITTER_START] = started;
  return started;
}
