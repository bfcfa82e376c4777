/**
 * Gitignore-style globs for path rules: `*` and `?` stay within one path segment, `**` spans
 * segments, `[abc]` is a class, and a pattern that matches a folder also matches everything
 * inside it. Matching is case-sensitive, as on Linux.
 */

/** A compiled glob, matched against a path relative to the rule's base folder. */
export interface CompiledGlob {
  /** The literal start of the pattern; a relative path not starting with it cannot match. */
  readonly literal: string;
  /** True when the pattern may match at any depth (a relative pattern with no `/`). */
  readonly anyDepth: boolean;
  readonly regex: RegExp;
}

/** Compiles `pattern`; `anyDepth` lets a slash-free pattern match in any folder below the base. */
export function compileGlob(pattern: string, anyDepth: boolean): CompiledGlob {
  const trimmed = pattern.replace(/\/+$/, "");
  if (trimmed === "" || trimmed === "**") return { literal: "", anyDepth: false, regex: /^/ };
  const segments = trimmed.split("/").filter((s) => s !== "");
  let body = anyDepth ? "(?:.*/)?" : "";
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === "**") body += last ? ".*" : "(?:[^/]*/)*";
    else body += segmentToRegex(segment) + (last ? "" : "/");
  });
  const literalEnd = trimmed.search(/[*?[\\]/);
  const literal = anyDepth ? "" : literalEnd < 0 ? trimmed : trimmed.slice(0, literalEnd);
  return { literal, anyDepth, regex: new RegExp(`^${body}(?:/.*)?$`, "s") };
}

/** True when the relative path matches the glob. */
export function matchGlob(glob: CompiledGlob, relativePath: string): boolean {
  if (glob.literal !== "" && !relativePath.startsWith(glob.literal)) return false;
  return glob.regex.test(relativePath);
}

function segmentToRegex(segment: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i] ?? "";
    if (ch === "*") {
      while (segment[i + 1] === "*") i++;
      out += "[^/]*";
    } else if (ch === "?") out += "[^/]";
    else if (ch === "\\" && i + 1 < segment.length) out += escapeRegex(segment[++i] ?? "");
    else if (ch === "[") {
      const close = segment.indexOf("]", i + 2);
      if (close < 0) out += "\\[";
      else {
        out += classToRegex(segment.slice(i + 1, close));
        i = close;
      }
    } else out += escapeRegex(ch);
  }
  return out;
}

function classToRegex(inner: string): string {
  const negated = inner.startsWith("!") || inner.startsWith("^");
  const body = (negated ? inner.slice(1) : inner).replace(/[\\\]^]/g, "\\$&").replace(/\//g, "");
  return negated ? `[^/${body}]` : `[${body}]`;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
