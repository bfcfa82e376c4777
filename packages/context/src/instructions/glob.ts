const cache = new Map<string, RegExp>();

function escapeChar(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

function translate(glob: string): string {
  let out = "";
  let inBraces = false;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] ?? "";
    if (ch === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        out += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else out += "[^/]*";
    } else if (ch === "?") out += "[^/]";
    else if (ch === "{") {
      inBraces = true;
      out += "(?:";
    } else if (ch === "}" && inBraces) {
      inBraces = false;
      out += ")";
    } else if (ch === "," && inBraces) out += "|";
    else if (ch === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) out += "\\[";
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        out += `[${body}]`;
        i = end;
      }
    } else out += escapeChar(ch);
  }
  return inBraces ? out.replace("(?:", "\\{") : out;
}

/**
 * Whether a project-relative path (`/`-separated) matches a glob: `*` and `?` within one
 * segment, `**` across segments, `{a,b}` alternatives, `[abc]` classes. A pattern without
 * `/` matches the file name at any depth (`*.ts` matches `src/a.ts`), as in .gitignore.
 * Never throws: an unusable pattern matches nothing.
 */
export function matchesGlob(path: string, glob: string): boolean {
  const pattern = glob.trim().replace(/^\.\//, "").replace(/^\//, "");
  if (pattern === "") return false;
  let regex = cache.get(pattern);
  if (regex === undefined) {
    const anyDepth = !pattern.includes("/");
    try {
      regex = new RegExp(`^${anyDepth ? "(?:.*/)?" : ""}${translate(pattern)}$`);
    } catch {
      regex = /$^/;
    }
    cache.set(pattern, regex);
  }
  return regex.test(path);
}
