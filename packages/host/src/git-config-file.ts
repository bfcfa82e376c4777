/**
 * A strict reader of git config files, for the few settings the engine reads without
 * spawning git (issue 18). It understands a subset of the format that git certainly reads
 * the same way, and gives up (null) on anything else, so the caller can ask git instead:
 * include sections, continued lines, unknown escapes, text after a section header, a
 * byte-order mark.
 */

/** One `section.key` (lower case; `section.sub.key` keeps the subsection's case) → its values in order. */
export type GitConfigValues = ReadonlyMap<string, readonly (string | true)[]>;

// Git allows no space inside the brackets but before a quoted subsection's name.
const SECTION = /^\[([A-Za-z0-9.-]+)(?:[ \t]+"((?:[^"\\]|\\["\\])*)")?\][ \t]*(?:[#;].*)?$/;
const KEY = /^([A-Za-z][A-Za-z0-9-]*)[ \t]*(?:=(.*))?$/;
const ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  b: "\b",
  "\\": "\\",
  '"': '"',
};

/**
 * A value's text as git reads it: outer spaces trimmed, quotes removed, `\n \t \b \\ \"`
 * escapes replaced, a `#` or `;` outside quotes starting a comment. Null for anything else
 * (an open quote, another escape, a trailing backslash that would continue the line).
 */
function parseValue(raw: string): string | null {
  let out = "";
  let quoted = false;
  // Spaces outside quotes count only between other characters.
  let pendingSpace = "";
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i] as string;
    if (char < " " && char !== "\t") return null;
    if (char === "\\") {
      const escaped = ESCAPES[raw[i + 1] ?? ""];
      if (escaped === undefined) return null;
      out += pendingSpace + escaped;
      pendingSpace = "";
      i++;
    } else if (char === '"') {
      out += pendingSpace;
      pendingSpace = "";
      quoted = !quoted;
    } else if (!quoted && (char === "#" || char === ";")) {
      break;
    } else if (!quoted && (char === " " || char === "\t")) {
      if (out.length > 0) pendingSpace += char;
    } else {
      out += pendingSpace + char;
      pendingSpace = "";
    }
  }
  return quoted ? null : out;
}

/**
 * The settings in a config file's text, or null when the text uses anything this reader
 * does not certainly read as git does (see the module's note). Section and key names are
 * lower-cased, a subsection's name is kept as written.
 */
export function parseGitConfig(text: string): GitConfigValues | null {
  if (text.startsWith("\uFEFF")) return null;
  const values = new Map<string, (string | true)[]>();
  let section: string | null = null;
  for (const rawLine of text.split("\n")) {
    // Only the spaces git skips: other white space makes git reject the line.
    const line = rawLine.replace(/^[ \t]+|[ \t\r]+$/g, "");
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    if (line.startsWith("[")) {
      const header = SECTION.exec(line);
      if (!header) return null;
      const name = (header[1] as string).toLowerCase();
      // Included files would have to be read (and may be conditional): let git do it.
      if (name === "include" || name === "includeif" || name.includes(".")) return null;
      section = header[2] === undefined ? name : `${name}.${header[2].replace(/\\(.)/g, "$1")}`;
      continue;
    }
    const entry = KEY.exec(line);
    if (!entry || section === null) return null;
    const value = entry[2] === undefined ? true : parseValue(entry[2]);
    if (value === null) return null;
    const key = `${section}.${(entry[1] as string).toLowerCase()}`;
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  return values;
}

/** The last value of `key` across `files` read in order (later files win), or undefined. */
export function lastValue(
  files: readonly GitConfigValues[],
  key: string,
): string | true | undefined {
  let found: string | true | undefined;
  for (const file of files) {
    const list = file.get(key);
    if (list && list.length > 0) found = list[list.length - 1];
  }
  return found;
}
