import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { ProjectFileReader } from "@z-engine/protocol";
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  MarkedString,
  MarkupContent,
  Range,
  SymbolInformation,
  TextEdit,
  WorkspaceEdit,
  WorkspaceSymbol,
} from "vscode-languageserver-protocol/node";

/** Most entries a list result shows. */
export const MAX_LIST = 50;
const MAX_HOVER_CHARS = 4000;
const MAX_LINE_CHARS = 200;

const SYMBOL_KINDS = [
  "",
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
];
const SEVERITIES = ["", "error", "warning", "info", "hint"];

/** The kind of a symbol as a word (`function`, `class`). */
export function symbolKindName(kind: number): string {
  return SYMBOL_KINDS[kind] ?? "symbol";
}

/** Most distinct files one result quotes lines from; later ones are shown without a quote. */
export const MAX_QUOTED_FILES = 100;
/** Most bytes read of a file to quote its lines (a cut file quotes its first lines only). */
const MAX_QUOTED_BYTES = 4 * 1024 * 1024;

/** Every `file:` URI in an LSP result (`uri`, `targetUri`, a WorkspaceEdit's `changes` keys), in order, each once. */
function urisIn(value: unknown, out: Set<string>, depth = 0): Set<string> {
  if (depth > 12 || out.size >= MAX_QUOTED_FILES || value === null || typeof value !== "object")
    return out;
  if (Array.isArray(value)) {
    for (const item of value) urisIn(item, out, depth + 1);
    return out;
  }
  const add = (uri: string) => {
    if (uri.startsWith("file:") && out.size < MAX_QUOTED_FILES) out.add(uri);
  };
  for (const [key, item] of Object.entries(value)) {
    if ((key === "uri" || key === "targetUri") && typeof item === "string") add(item);
    else if (key === "changes" && item !== null && typeof item === "object")
      for (const uri of Object.keys(item)) add(uri);
    else urisIn(item, out, depth + 1);
  }
  return out;
}

/**
 * Quotes the line a location points at. The lines come only through `files` (the engine's
 * door: the Read rules, regular files, bounded reads), loaded by {@link Quoter.load} for the
 * files a result names before it is formatted; a file the door refuses, or one not loaded,
 * is shown without a quote.
 */
export class Quoter {
  private readonly cache = new Map<string, string[] | null>();
  constructor(
    readonly root: string,
    private readonly files: ProjectFileReader,
  ) {}

  /** A path as shown: relative to the project when inside it. */
  show(path: string): string {
    const rel = relative(this.root, path);
    return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
  }

  /** Reads, through the door, the lines of the files `result` names. Never rejects. */
  async load(result: unknown): Promise<void> {
    const paths = [...urisIn(result, new Set())].map(pathOfUri).filter((p) => !this.cache.has(p));
    await Promise.all(
      paths.map(async (path) => {
        const read = await this.files
          .readText(path, { maxBytes: MAX_QUOTED_BYTES, cut: true })
          .catch(() => null);
        this.cache.set(path, read?.ok ? read.text.split("\n") : null);
      }),
    );
  }

  /** The text of a line (0-based), trimmed and cut; "" when refused, unread or absent. */
  line(path: string, line: number): string {
    const text = (this.cache.get(path)?.[line] ?? "").trim();
    return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
  }

  /** `src/a.ts:12:5: <the line>` for a range (1-based line and column). */
  at(uri: string, range: Range, quote = true): string {
    const path = pathOfUri(uri);
    const head = `${this.show(path)}:${range.start.line + 1}:${range.start.character + 1}`;
    const text = quote ? this.line(path, range.start.line) : "";
    return text ? `${head}: ${text}` : head;
  }
}

/** The path of a `file:` URI (other URIs are returned as they are). */
export function pathOfUri(uri: string): string {
  return uri.startsWith("file:") ? fileURLToPath(uri) : uri;
}

/** Cuts a list to {@link MAX_LIST} lines with a count of the rest. */
export function capped(lines: readonly string[]): string {
  if (lines.length <= MAX_LIST) return lines.join("\n");
  return `${lines.slice(0, MAX_LIST).join("\n")}\n… and ${lines.length - MAX_LIST} more`;
}

type Locations = Location | Location[] | LocationLink[] | null;

/** Definition, implementation and reference results as quoted locations. */
export function formatLocations(result: Locations, q: Quoter, what: string): string {
  const list = result === null ? [] : Array.isArray(result) ? result : [result];
  if (list.length === 0) return `No ${what} found.`;
  const lines = list.map((l) =>
    "targetUri" in l ? q.at(l.targetUri, l.targetSelectionRange) : q.at(l.uri, l.range),
  );
  const n = lines.length;
  return `${n} ${what}${n === 1 ? "" : "s"}:\n${capped(lines)}`;
}

function markedText(m: MarkedString | MarkupContent): string {
  if (typeof m === "string") return m;
  if ("language" in m) return `\`\`\`${m.language}\n${m.value}\n\`\`\``;
  return m.value;
}

/** Hover contents as plain text, cut at 4,000 characters. */
export function formatHover(hover: Hover | null): string {
  if (!hover) return "No hover information at that position.";
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  const text = parts.map(markedText).join("\n\n").trim();
  if (text === "") return "No hover information at that position.";
  return text.length > MAX_HOVER_CHARS ? `${text.slice(0, MAX_HOVER_CHARS)}…` : text;
}

/** Document symbols as an indented outline with 1-based lines. */
export function formatDocumentSymbols(
  result: DocumentSymbol[] | SymbolInformation[] | null,
  q: Quoter,
): string {
  if (!result || result.length === 0) return "No symbols found.";
  const lines: string[] = [];
  const walk = (symbols: DocumentSymbol[], depth: number) => {
    for (const s of symbols) {
      lines.push(
        `${"  ".repeat(depth)}${symbolKindName(s.kind)} ${s.name} (line ${s.selectionRange.start.line + 1})`,
      );
      walk(s.children ?? [], depth + 1);
    }
  };
  const first = result[0];
  if (first && "location" in first) {
    for (const s of result as SymbolInformation[])
      lines.push(
        `${symbolKindName(s.kind)} ${s.name} (${q.at(s.location.uri, s.location.range, false)})`,
      );
  } else walk(result as DocumentSymbol[], 0);
  return capped(lines);
}

/** Workspace symbols with where each is. */
export function formatWorkspaceSymbols(
  result: SymbolInformation[] | WorkspaceSymbol[] | null,
  q: Quoter,
): string {
  if (!result || result.length === 0) return "No symbols found.";
  const lines = result.map((s) => {
    const where =
      "range" in s.location
        ? q.at(s.location.uri, s.location.range, false)
        : q.show(pathOfUri(s.location.uri));
    const container = s.containerName ? ` in ${s.containerName}` : "";
    return `${symbolKindName(s.kind)} ${s.name}${container}: ${where}`;
  });
  return capped(lines);
}

function itemLine(item: CallHierarchyItem, q: Quoter): string {
  return `${symbolKindName(item.kind)} ${item.name}: ${q.at(item.uri, item.selectionRange)}`;
}

/** Callers of an item. */
export function formatIncoming(calls: CallHierarchyIncomingCall[] | null, q: Quoter): string {
  if (!calls || calls.length === 0) return "No callers found.";
  return `${calls.length} caller${calls.length === 1 ? "" : "s"}:\n${capped(calls.map((c) => itemLine(c.from, q)))}`;
}

/** What an item calls. */
export function formatOutgoing(calls: CallHierarchyOutgoingCall[] | null, q: Quoter): string {
  if (!calls || calls.length === 0) return "No outgoing calls found.";
  return `${calls.length} callee${calls.length === 1 ? "" : "s"}:\n${capped(calls.map((c) => itemLine(c.to, q)))}`;
}

/** One diagnostic as `path:line:col: error: message [source code]`. */
export function diagnosticLine(path: string, d: Diagnostic, q: Quoter): string {
  const severity = SEVERITIES[d.severity ?? 1] ?? "error";
  const tag = [d.source, d.code].filter((x) => x !== undefined && x !== "").join(" ");
  const text = typeof d.message === "string" ? d.message : d.message.value;
  const message = text.split("\n")[0] ?? "";
  return `${q.show(path)}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${severity}: ${message}${tag ? ` [${tag}]` : ""}`;
}

/** A file's diagnostics, errors first. */
export function formatDiagnostics(path: string, items: readonly Diagnostic[], q: Quoter): string {
  if (items.length === 0) return `No diagnostics for ${q.show(path)}.`;
  const sorted = [...items].sort(
    (a, b) => (a.severity ?? 1) - (b.severity ?? 1) || a.range.start.line - b.range.start.line,
  );
  return capped(sorted.map((d) => diagnosticLine(path, d, q)));
}

/** The edits of a rename, per file, with the line each one changes. Nothing is applied. */
export function formatRename(edit: WorkspaceEdit | null, newName: string, q: Quoter): string {
  const byFile = new Map<string, TextEdit[]>();
  for (const [uri, edits] of Object.entries(edit?.changes ?? {})) byFile.set(uri, [...edits]);
  for (const change of edit?.documentChanges ?? []) {
    if ("edits" in change)
      byFile.set(change.textDocument.uri, [
        ...(byFile.get(change.textDocument.uri) ?? []),
        ...change.edits.filter((e): e is TextEdit => "range" in e),
      ]);
  }
  const total = [...byFile.values()].reduce((n, e) => n + e.length, 0);
  if (total === 0) return "Rename preview: nothing to rename at that position.";
  const lines = [
    `Rename preview to \`${newName}\` (not applied): ${total} edit${total === 1 ? "" : "s"} in ${byFile.size} file${byFile.size === 1 ? "" : "s"}`,
  ];
  for (const [uri, edits] of byFile) {
    lines.push(q.show(pathOfUri(uri)));
    for (const e of edits.sort((a, b) => a.range.start.line - b.range.start.line))
      lines.push(`  ${q.at(uri, e.range).replace(/^[^:]*:/, "line ")} → ${e.newText}`);
  }
  return capped(lines);
}
