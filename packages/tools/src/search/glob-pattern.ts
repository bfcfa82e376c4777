function escapeChar(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}

/** The regex source of a character class starting at `pattern[start] === "["`, and where it ends. */
function charClass(pattern: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let body = "";
  if (pattern[i] === "!" || pattern[i] === "^") {
    body = "^";
    i++;
  }
  if (pattern[i] === "]") {
    body += "\\]";
    i++;
  }
  for (; i < pattern.length && pattern[i] !== "]"; i++) {
    const char = pattern[i] ?? "";
    body += char === "\\" || char === "[" ? `\\${char}` : char;
  }
  return i < pattern.length ? { source: `[${body}]`, end: i } : null;
}

/** Regex source of a glob body: `**`, `*`, `?`, `[...]`, `{a,b}`, `\x`. */
export function globSource(pattern: string): string {
  let out = "";
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? "";
    if (char === "*" && pattern[i + 1] === "*") {
      const slashAfter = pattern[i + 2] === "/";
      const atStart = i === 0 || pattern[i - 1] === "/";
      if (atStart && slashAfter) {
        out += "(?:.*/)?";
        i += 2;
      } else {
        out += ".*";
        i += 1;
      }
    } else if (char === "*") out += "[^/]*";
    else if (char === "?") out += "[^/]";
    else if (char === "[") {
      const cls = charClass(pattern, i);
      if (cls) {
        out += cls.source;
        i = cls.end;
      } else out += "\\[";
    } else if (char === "{") {
      braces++;
      out += "(?:";
    } else if (char === "}" && braces > 0) {
      braces--;
      out += ")";
    } else if (char === "," && braces > 0) out += "|";
    else if (char === "\\" && i + 1 < pattern.length) out += escapeChar(pattern[++i] ?? "");
    else out += escapeChar(char);
  }
  return out + ")".repeat(braces);
}

/**
 * A gitignore-style glob as a regex over `/`-separated relative paths: a pattern without a
 * slash matches a name at any depth; one with a slash is anchored (a leading `/` dropped).
 */
export function globRegex(pattern: string, caseInsensitive = false): RegExp {
  const trimmed = pattern.endsWith("/") ? pattern.slice(0, -1) : pattern;
  const anchored = trimmed.includes("/");
  const body = globSource(trimmed.startsWith("/") ? trimmed.slice(1) : trimmed);
  return new RegExp(`^${anchored ? "" : "(?:.*/)?"}${body}$`, caseInsensitive ? "i" : "");
}
