import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Node, Parser, Tree } from "web-tree-sitter";
import type { ParsedCommand, Redirection, SimpleCommand } from "./action.js";
import {
  codePointName,
  hasSuspectChars,
  normaliseSuspects,
  suspectOffsets,
} from "./shell-chars.js";
import { parsePlainLine } from "./plain-line.js";
import { unwrapCommand } from "./shell-wrappers.js";
import { wordValue } from "./shell-words.js";

/** Longest command line {@link parseCommandSync} reads; a longer one gets `error` (so it asks). */
export const MAX_COMMAND_LENGTH = 64 * 1024;
/** How deep `bash -c '...'` and `eval` strings are opened before giving up with `error`. */
const MAX_NESTING = 4;

let parser: Parser | undefined;
let loading: Promise<Parser> | undefined;

/** Error raised when tree-sitter-bash cannot be loaded (`code` `"shellParserUnavailable"`). */
export class ShellParserError extends Error {
  readonly code = "shellParserUnavailable";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ShellParserError";
  }
}

/**
 * Loads web-tree-sitter and the tree-sitter-bash grammar once; later calls return at once.
 * Rejects with {@link ShellParserError} when the wasm cannot be found or loaded (a later call
 * tries again).
 */
export async function initShellParser(): Promise<void> {
  if (parser) return;
  loading ??= loadParser();
  try {
    parser = await loading;
  } catch (cause) {
    loading = undefined;
    throw new ShellParserError("cannot load the tree-sitter-bash grammar", { cause });
  }
}

/**
 * Loads the parser. Its wasm files are read and compiled on this thread, synchronously: the
 * first shell command of a session waits for the parser (issue 18), and each asynchronous
 * read or compile waits for a thread pool and an event loop that the first model response,
 * the turn's snapshot and the tool call keep busy, while compiling is a few milliseconds
 * (V8 compiles a wasm function when it first runs).
 */
/** The part of the WebAssembly API used here (the project's TypeScript libs leave it out). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: object) => WasmInstance;
};
interface WasmModule {
  readonly __wasmModule?: never;
}
interface WasmInstance {
  readonly exports: object;
}

/**
 * Lets the event loop run what waits (a process's exit, a response's bytes) between the
 * load's synchronous steps, each a few milliseconds: the load runs beside a turn's first
 * answer and tool call, which matter more.
 */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function loadParser(): Promise<Parser> {
  const ts = await import("web-tree-sitter");
  await yieldToLoop();
  const require = createRequire(import.meta.url);
  const runtime = join(dirname(require.resolve("web-tree-sitter")), "web-tree-sitter.wasm");
  await startTreeSitter(ts.Parser, {
    // Emscripten's hook for a module's own instantiation.
    instantiateWasm(imports: object, done: (instance: WasmInstance, module: WasmModule) => void) {
      const module = new WebAssembly.Module(readFileSync(runtime));
      const instance = new WebAssembly.Instance(module, imports);
      done(instance, module);
      return instance.exports;
    },
  });
  const wasm = join(
    dirname(require.resolve("tree-sitter-bash/package.json")),
    "tree-sitter-bash.wasm",
  );
  await yieldToLoop();
  const compiled = new WebAssembly.Module(readFileSync(wasm));
  await yieldToLoop();
  const language = ts.Language.loadSync(compiled);
  const p = new ts.Parser();
  p.setLanguage(language);
  await yieldToLoop();
  return p;
}

/** True once {@link initShellParser} has finished, so {@link parseCommandSync} can be used. */
export function isShellParserReady(): boolean {
  return parser !== undefined;
}

/**
 * Splits a command line into its simple commands and redirections (see {@link ParsedCommand}).
 * Loads the parser on first use. Never rejects for a bad command (it gets `error`); rejects
 * with {@link ShellParserError} only when the grammar cannot be loaded.
 */
export async function parseCommand(source: string): Promise<ParsedCommand> {
  const plain = parsePlainLine(source);
  if (plain) return plain;
  await initShellParser();
  return parseWithTreeSitter(source);
}

/**
 * The synchronous {@link parseCommand}, for use after {@link initShellParser} resolved (a
 * line of plain words, see `parsePlainLine`, needs no parser). Throws
 * {@link ShellParserError} when called before that. Never throws for bad input.
 */
export function parseCommandSync(source: string): ParsedCommand {
  return parsePlainLine(source) ?? parseWithTreeSitter(source);
}

/** What tree-sitter-bash makes of `source` (see {@link parseCommandSync}). */
export function parseWithTreeSitter(source: string): ParsedCommand {
  if (!parser) throw new ShellParserError("parseCommandSync called before initShellParser()");
  const out: Collected = { commands: [], redirections: [], errors: [] };
  collectLine(parser, source, out, 0);
  const base = { source, commands: out.commands, redirections: out.redirections };
  return out.errors.length > 0 ? { ...base, error: out.errors.join("; ") } : base;
}

interface Collected {
  commands: SimpleCommand[];
  redirections: Redirection[];
  errors: string[];
}

function collectLine(p: Parser, source: string, out: Collected, depth: number): void {
  if (source.length > MAX_COMMAND_LENGTH) {
    out.errors.push(`the command is longer than ${MAX_COMMAND_LENGTH} characters`);
    return;
  }
  const tree = hasSuspectChars(source) ? parseSuspect(p, source, out) : p.parse(source);
  if (!tree) {
    out.errors.push("the shell parser gave no tree");
    return;
  }
  try {
    if (tree.rootNode.hasError) out.errors.push(describeError(tree.rootNode));
    walk(p, tree.rootNode, out, depth);
  } finally {
    tree.delete();
  }
}

/**
 * Parses a line holding characters bash and the parser may read differently (see
 * shell-chars.ts). The line is parsed as bash reads it (such characters made plain word
 * characters), so every command bash would run is listed and deny rules meet it. When one
 * stands outside quotes (or the line holds NUL), the line gets `error` and so never passes
 * unasked; when all are quoted, both read them as text and the line is parsed as written.
 */
function parseSuspect(p: Parser, source: string, out: Collected): Tree | null {
  const normal = normaliseSuspects(source);
  const tree = p.parse(normal);
  if (!tree) return tree;
  const unquoted = source.includes("\0")
    ? ["\0"]
    : suspectOffsets(source)
        .filter((i) => !QUOTED.has(tree.rootNode.descendantForIndex(i)?.type ?? ""))
        .map((i) => source.charAt(i));
  if (unquoted.length > 0) {
    const names = [...new Set(unquoted.map((c) => (c === "\0" ? "NUL" : codePointName(c))))]
      .slice(0, 3)
      .join(", ");
    out.errors.push(
      `the command holds ${names} outside quotes, which the shell and the gate's parser may read differently`,
    );
    return tree;
  }
  tree.delete();
  return p.parse(source);
}

/** Node types whose text both bash and the parser read literally. */
const QUOTED = new Set(["raw_string", "string_content", "ansi_c_string"]);

function describeError(root: Node): string {
  const bad = firstErrorNode(root);
  if (!bad) return "the shell parser could not read the command";
  const what = bad.isMissing ? `a missing "${bad.type}"` : `unexpected "${bad.text.slice(0, 20)}"`;
  return `the shell parser could not read the command (${what} at offset ${bad.startIndex})`;
}

function firstErrorNode(node: Node): Node | undefined {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    if (child.hasError || child.isMissing || child.isError) {
      const found = firstErrorNode(child);
      if (found) return found;
    }
  }
  return undefined;
}

function walk(p: Parser, node: Node, out: Collected, depth: number): void {
  switch (node.type) {
    case "command":
      addCommand(p, node, out, depth);
      break;
    case "declaration_command":
    case "unset_command":
    case "test_command":
      addSimple(p, node, node.children.map(plainWord), out, depth);
      break;
    case "variable_assignment":
      // A bare assignment (`PATH=./evil`) changes what later commands run, so it must be allowed.
      if (node.parent?.type !== "command" && node.parent?.type !== "declaration_command") {
        out.commands.push({ argv: [node.text], text: node.text });
      }
      break;
    case "file_redirect":
      addRedirection(node, out);
      break;
  }
  for (const child of node.namedChildren) walk(p, child, out, depth);
}

function plainWord(node: Node): string {
  return node.isNamed ? wordValue(node) : node.text;
}

function addCommand(p: Parser, node: Node, out: Collected, depth: number): void {
  const argv: string[] = [];
  for (const child of node.namedChildren) {
    if (child.type === "file_redirect" || child.type.endsWith("_redirect")) continue;
    if (child.type === "variable_assignment") argv.push(child.text);
    else argv.push(wordValue(child));
  }
  addSimple(p, node, argv, out, depth);
}

function addSimple(p: Parser, node: Node, argv: string[], out: Collected, depth: number): void {
  const words = argv.filter((w) => w !== "");
  if (words.length === 0) return;
  const text = node.text;
  const unwrapped = unwrapCommand(words);
  if (unwrapped.keepOuter) out.commands.push({ argv: words, text });
  for (const inner of unwrapped.inner) out.commands.push({ argv: inner, text });
  for (const script of unwrapped.scripts) {
    if (depth >= MAX_NESTING) out.errors.push("shell strings nested too deeply to check");
    else collectLine(p, script, out, depth + 1);
  }
}

const WRITE_OPERATORS = new Set([">", ">>", "&>", "&>>", ">|"]);

function addRedirection(node: Node, out: Collected): void {
  let descriptor = "";
  let op = "";
  let target = "";
  for (const child of node.children) {
    if (child.type === "file_descriptor") descriptor = child.text;
    else if (!child.isNamed && op === "") op = child.type;
    else if (child.isNamed && child.type !== "ERROR") target += wordValue(child);
  }
  const fdDup = (op === ">&" || op === "<&") && /^(\d+|-)$/.test(target);
  const writes = !fdDup && (WRITE_OPERATORS.has(op) || op === ">&");
  out.redirections.push({ operator: descriptor + op, target, writes });
}

/** Where the runtime's start is kept, shared by every package that parses with tree-sitter. */
const TREE_SITTER_START = Symbol.for("z-engine.web-tree-sitter.start");

/**
 * Starts web-tree-sitter's runtime once per JS realm, whichever package asks first (the repo
 * map does the same under the same key): two `Parser.init()` calls that overlap each make a
 * runtime, and the second replaces the first under the languages and parsers already made
 * from it. A failed start is forgotten, so a later call tries again.
 */
function startTreeSitter(
  parser: { init(options?: object): Promise<void> },
  options?: object,
): Promise<void> {
  const slot = parser as unknown as Record<symbol, Promise<void> | undefined>;
  const running = slot[TREE_SITTER_START];
  if (running) return running;
  const started = parser.init(options).catch((error: unknown) => {
    slot[TREE_SITTER_START] = undefined;
    throw error;
  });
  slot[TREE_SITTER_START] = started;
  return started;
}
