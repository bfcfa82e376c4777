// A small markdown renderer to React elements (never HTML strings): fenced code with
// highlighting, headings, lists, quotes, paragraphs, and inline code, bold, italics and links.
import { Fragment, memo, type ReactNode } from "react";
import { highlight } from "./highlight.js";

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\((https?:\/\/[^)\s]+)\))/g;

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const [whole, code, bold, italic, link, href] = m;
    if (code) out.push(<code key={at}>{code.slice(1, -1)}</code>);
    else if (bold) out.push(<strong key={at}>{bold.slice(2, -2)}</strong>);
    else if (italic) out.push(<em key={at}>{italic.slice(1, -1)}</em>);
    else if (link && href)
      out.push(
        <a key={at} href={href} target="_blank" rel="noreferrer noopener">
          {link.slice(1, link.indexOf("]"))}
        </a>,
      );
    last = at + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function CodeBlock({ code, lang }: { code: string; lang: string }) {
  return (
    <pre className="code" data-lang={lang || undefined}>
      <code>
        {highlight(code, lang).map((t, i) =>
          t.kind ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: tokens have no identity but their order
            <span key={i} className={`tok-${t.kind}`}>
              {t.text}
            </span>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <Fragment key={i}>{t.text}</Fragment>
          ),
        )}
      </code>
    </pre>
  );
}

type Block =
  | { kind: "code"; lang: string; text: string }
  | { kind: "heading"; level: number; text: string }
  | { kind: "list"; ordered: boolean; items: string[] }
  | { kind: "quote"; text: string }
  | { kind: "para"; text: string };

function blocks(source: string): Block[] {
  const lines = source.split("\n");
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    const fence = /^```\s*([\w+-]*)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i] ?? "")) body.push(lines[i++] ?? "");
      i++;
      out.push({ kind: "code", lang: fence[1] ?? "", text: body.join("\n") });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      out.push({ kind: "heading", level: heading[1]?.length ?? 1, text: heading[2] ?? "" });
      i++;
      continue;
    }
    const item = /^\s*([-*+]|\d+[.)])\s+/;
    if (item.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      while (i < lines.length && item.test(lines[i] ?? ""))
        items.push((lines[i++] ?? "").replace(item, ""));
      out.push({ kind: "list", ordered, items });
      continue;
    }
    if (line.startsWith(">")) {
      const body: string[] = [];
      while (i < lines.length && (lines[i] ?? "").startsWith(">"))
        body.push((lines[i++] ?? "").replace(/^>\s?/, ""));
      out.push({ kind: "quote", text: body.join(" ") });
      continue;
    }
    if (line.trim() === "") {
      i++;
      continue;
    }
    const body: string[] = [];
    while (
      i < lines.length &&
      (lines[i] ?? "").trim() !== "" &&
      !/^(```|#{1,6}\s|>|\s*([-*+]|\d+[.)])\s)/.test(lines[i] ?? "")
    )
      body.push(lines[i++] ?? "");
    out.push({ kind: "para", text: body.join("\n") });
  }
  return out;
}

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.kind) {
    case "code":
      return <CodeBlock key={key} code={block.text} lang={block.lang} />;
    case "heading": {
      const H = `h${Math.min(6, block.level + 2)}` as "h3";
      return <H key={key}>{inline(block.text)}</H>;
    }
    case "list": {
      const L = block.ordered ? "ol" : "ul";
      return (
        <L key={key}>
          {block.items.map((it, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: list items are positional
            <li key={j}>{inline(it)}</li>
          ))}
        </L>
      );
    }
    case "quote":
      return <blockquote key={key}>{inline(block.text)}</blockquote>;
    default:
      return <p key={key}>{inline(block.text)}</p>;
  }
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return <div className="md">{blocks(text).map(renderBlock)}</div>;
});
