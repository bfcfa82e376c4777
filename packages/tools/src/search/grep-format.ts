import type { GrepFileResult, GrepQuery } from "./grep-query.js";

/** Paging of the output: skip `offset` entries, keep `headLimit`. */
export interface Paging {
  readonly offset: number;
  readonly headLimit: number | undefined;
}

function page<T>(items: readonly T[], paging: Paging): { items: T[]; cut: boolean } {
  const end = paging.headLimit === undefined ? items.length : paging.offset + paging.headLimit;
  return { items: items.slice(paging.offset, end), cut: end < items.length };
}

function cutLine(text: string, maxChars: number): string {
  const clean = text.endsWith("\r") ? text.slice(0, -1) : text;
  return clean.length > maxChars ? `${clean.slice(0, maxChars)}… [line cut]` : clean;
}

function contentLines(
  files: readonly GrepFileResult[],
  numbers: boolean,
  maxChars: number,
  context: boolean,
): string[] {
  const out: string[] = [];
  for (const file of files) {
    let previous = -1;
    for (const line of file.lines) {
      if (context && out.length > 0 && line.line !== previous + 1) out.push("--");
      const sep = line.match ? ":" : "-";
      out.push(
        `${file.path}${sep}${numbers ? `${line.line}${sep}` : ""}${cutLine(line.text, maxChars)}`,
      );
      previous = line.line;
    }
  }
  return out;
}

/**
 * Renders engine results the same way whichever engine found them: files sorted by path;
 * `files_with_matches` lists paths, `count` lists `path:count`, `content` lists
 * `path:line:text` (context lines `path-line-text`, `--` between groups). Never throws.
 */
export function formatGrep(
  found: readonly GrepFileResult[],
  query: GrepQuery,
  options: Paging & { readonly lineNumbers: boolean; readonly maxLineChars: number },
): string {
  const files = [...found].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (files.length === 0)
    return query.mode === "files_with_matches" ? "No files found" : "No matches found";
  const more = (cut: boolean) =>
    cut ? "\n\n(More results exist: raise head_limit or use offset to see them.)" : "";
  if (query.mode === "files_with_matches") {
    const { items, cut } = page(
      files.map((f) => f.path),
      options,
    );
    return `Found ${files.length} file${files.length === 1 ? "" : "s"}\n${items.join("\n")}${more(cut)}`;
  }
  if (query.mode === "count") {
    const total = files.reduce((sum, f) => sum + f.count, 0);
    const { items, cut } = page(
      files.map((f) => `${f.path}:${f.count}`),
      options,
    );
    return `${items.join("\n")}\n\nFound ${total} matching line${total === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"}.${more(cut)}`;
  }
  const context = query.before > 0 || query.after > 0;
  const { items, cut } = page(
    contentLines(files, options.lineNumbers, options.maxLineChars, context),
    options,
  );
  return items.join("\n") + more(cut);
}
