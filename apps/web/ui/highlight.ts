// Code highlighting by a small tokenizer: comments, strings, numbers and the keywords of the
// common languages. Enough to read code; no grammar per language.
export interface Token {
  readonly text: string;
  readonly kind?: "kw" | "str" | "com" | "num";
}

const KEYWORDS = new Set(
  (
    "abstract as async await break case catch class const continue def default del do elif else enum export " +
    "extends false fn for from func function go if impl implements import in interface is let match mod " +
    "module mut new nil None null package pass private protected pub public raise return self static " +
    "struct super switch this throw True true try type typeof use var void while with yield"
  ).split(" "),
);

const TOKEN =
  /(\/\/[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/)|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|(\b\d[\d_.]*\b)|([A-Za-z_$][\w$]*)/g;

export function highlight(code: string, lang: string): Token[] {
  const hashComments = /^(py|python|sh|bash|shell|rb|ruby|toml|yaml|yml)$/.test(lang);
  const out: Token[] = [];
  let last = 0;
  for (const m of code.matchAll(TOKEN)) {
    const at = m.index ?? 0;
    const [whole, comment, string, number, word] = m;
    let kind: Token["kind"];
    if (comment && (hashComments || !comment.startsWith("#"))) kind = "com";
    else if (string) kind = "str";
    else if (number) kind = "num";
    else if (word && KEYWORDS.has(word)) kind = "kw";
    if (!kind) continue;
    if (at > last) out.push({ text: code.slice(last, at) });
    out.push({ text: whole, kind });
    last = at + whole.length;
  }
  if (last < code.length) out.push({ text: code.slice(last) });
  return out;
}
