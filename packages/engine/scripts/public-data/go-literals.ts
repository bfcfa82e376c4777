// Reads the test cases of gitleaks' rule files (cmd/generate/config/rules/*.go): the string
// literals of each rule's `tps` (true positives) and `fps` (false positives) lists. Only
// whole literals count: a literal joined to generated text (`"x" + newPlausibleSecret(...)`)
// is left out, since its secret is drawn at random when gitleaks runs its tests.

/** One case: the text and whether gitleaks expects its rule to fire on it. */
export interface GoCase {
  readonly text: string;
  readonly list: "tps" | "fps";
}

interface Open {
  readonly char: string;
  /** The called function's name when this is a call's parenthesis. */
  readonly call?: string;
  args: number;
}

const CLOSE: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/** gitleaks' `GenerateSampleSecrets` layouts, a few of them (utils/generate.go). */
const SAMPLE_LAYOUTS = [
  "{i}_token: {s}",
  '{i}Token = "{s}"',
  "{I}_TOKEN={s}",
  '"{i}_token": "{s}"',
];

function unquote(raw: string): string {
  if (raw.startsWith("`")) return raw.slice(1, -1);
  return raw
    .slice(1, -1)
    .replace(/\\(["\\nt'])/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
}

/** The next literal, comment or character of `src` at `i`: [kind, end]. */
function lex(src: string, i: number): ["lit" | "skip" | "char", number] {
  const c = src[i];
  if (c === "`") return ["lit", src.indexOf("`", i + 1) + 1];
  if (c === '"') {
    let j = i + 1;
    while (j < src.length && src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
    return ["lit", j + 1];
  }
  if (src.startsWith("//", i)) {
    const end = src.indexOf("\n", i);
    return ["skip", end < 0 ? src.length : end];
  }
  if (src.startsWith("/*", i)) return ["skip", src.indexOf("*/", i) + 2];
  return ["char", i + 1];
}

const nextSignificant = (src: string, i: number): string => {
  let j = i;
  for (;;) {
    while (j < src.length && /\s/.test(src[j] as string)) j++;
    if (src.startsWith("//", j)) j = lex(src, j)[1];
    else return src[j] ?? "";
  }
};

/** The cases of one `tps`/`fps` expression starting at `start` (after `:=` or `=`). */
function casesOf(src: string, start: number, list: GoCase["list"], out: GoCase[]): void {
  const stack: Open[] = [];
  let prev = "";
  let i = start;
  while (i < src.length) {
    const [kind, end] = lex(src, i);
    const token = src.slice(i, end);
    i = end;
    if (kind === "skip") continue;
    if (kind === "lit") {
      const top = stack[stack.length - 1];
      const standalone =
        (prev === "{" || prev === "," || prev === "(") && /^[,})]$/.test(nextSignificant(src, i));
      if (standalone && top?.char === "{") out.push({ text: unquote(token), list });
      else if (standalone && top?.call === "append" && top.args > 0)
        out.push({ text: unquote(token), list });
      else if (standalone && top?.call === "GenerateSampleSecrets" && top.args === 1) {
        const id = /"(\w+)"/.exec(src.slice(src.lastIndexOf("(", i), i))?.[1] ?? "api";
        for (const layout of SAMPLE_LAYOUTS)
          out.push({
            text: layout
              .replace("{i}", id)
              .replace("{I}", id.toUpperCase())
              .replace("{s}", unquote(token)),
            list,
          });
      }
      prev = "lit";
      continue;
    }
    if (/\s/.test(token)) {
      if (token === "\n" && stack.length === 0 && prev !== "" && prev !== "=") return;
      continue;
    }
    if (token === "(" || token === "[" || token === "{") {
      const call =
        token === "(" ? /(\w+)\s*$/.exec(src.slice(Math.max(0, i - 40), i - 1))?.[1] : undefined;
      stack.push({ char: token, call, args: 0 });
    } else if (CLOSE[token]) {
      stack.pop();
    } else if (token === ",") {
      const top = stack[stack.length - 1];
      if (top) top.args++;
    }
    prev = token;
  }
}

/** Every tps/fps case of a gitleaks rule file's Go source. */
export function goRuleCases(src: string): GoCase[] {
  const out: GoCase[] = [];
  for (const m of src.matchAll(/\b(tps|fps)\s*:?=\s*/g))
    casesOf(src, (m.index ?? 0) + m[0].length, m[1] as GoCase["list"], out);
  return out;
}
