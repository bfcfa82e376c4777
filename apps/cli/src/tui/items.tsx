import { badgeLabel, formatCost, formatSeconds, formatTokens } from "./format.js";
import type { ToolDisplay } from "@z-engine/protocol";
import { Box, Text } from "ink";
import { markdownLines } from "./markdown.js";
import { useColor } from "./theme.js";
import type { Item, LiveTool } from "./view.js";

/** Markdown text as styled terminal lines. */
export function Markdown({ text }: { text: string }) {
  const c = useColor();
  return (
    <Box flexDirection="column">
      {markdownLines(text).map((line, i) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of one text have no other identity.
          key={i}
          dimColor={line.kind === "quote"}
          color={line.kind === "heading" ? c("accent") : undefined}
        >
          {line.kind === "quote" ? "│ " : ""}
          {line.spans.map((s, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: spans of one line have no other identity.
            <Text key={j} bold={s.bold} italic={s.italic} color={s.code ? c("accent") : undefined}>
              {s.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}

/** Collapses long output: the first `keep` lines and how many more there are. */
export function collapse(text: string, keep: number): { lines: string[]; more: number } {
  const lines = text.replace(/\n+$/, "").split("\n");
  return { lines: lines.slice(0, keep), more: Math.max(0, lines.length - keep) };
}

/** A unified diff, coloured by line, at most `keep` lines. */
export function Diff({ diff, keep = 20 }: { diff: string; keep?: number }) {
  const c = useColor();
  const { lines, more } = collapse(diff, keep);
  const color = (line: string) =>
    line.startsWith("+++") || line.startsWith("---")
      ? undefined
      : line.startsWith("+")
        ? c("add")
        : line.startsWith("-")
          ? c("remove")
          : line.startsWith("@@")
            ? c("hunk")
            : undefined;
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: diff lines have no other identity.
        <Text key={i} color={color(line)}>
          {line}
        </Text>
      ))}
      {more > 0 ? <Text dimColor>… {more} more lines</Text> : null}
    </Box>
  );
}

/** What a tool showed, collapsed: a diff, the command's last lines, files, todos or text. */
export function Display({ display }: { display: ToolDisplay }) {
  switch (display.kind) {
    case "diff":
      return (
        <Box flexDirection="column">
          <Text dimColor>
            {"  "}
            {display.path} +{display.added} -{display.removed}
          </Text>
          <Diff diff={display.diff} />
        </Box>
      );
    case "command": {
      const out = collapse(display.output ?? "", 3);
      return (
        <Box flexDirection="column" paddingLeft={2}>
          <Text dimColor>$ {display.command}</Text>
          {out.lines.filter(Boolean).map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: output lines have no other identity.
            <Text key={i} dimColor wrap="truncate-end">
              {l}
            </Text>
          ))}
          {out.more > 0 ? <Text dimColor>… {out.more} more lines</Text> : null}
        </Box>
      );
    }
    case "files":
      return (
        <Text dimColor>
          {"  "}
          {display.paths.length} file{display.paths.length === 1 ? "" : "s"}
          {display.truncated ? " (truncated)" : ""}
        </Text>
      );
    case "todos":
      return (
        <Box flexDirection="column" paddingLeft={2}>
          {display.todos.map((t) => (
            <Text key={t.content} dimColor={t.status === "completed"}>
              {t.status === "completed" ? "☒" : t.status === "in_progress" ? "◐" : "☐"} {t.content}
            </Text>
          ))}
        </Box>
      );
    default: {
      const out = collapse(display.text, 3);
      return (
        <Box flexDirection="column" paddingLeft={2}>
          {out.lines.map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: output lines have no other identity.
            <Text key={i} dimColor wrap="truncate-end">
              {l}
            </Text>
          ))}
          {out.more > 0 ? <Text dimColor>… {out.more} more lines</Text> : null}
        </Box>
      );
    }
  }
}

const STATUS_MARK = { ok: "●", error: "✗", denied: "⊘", cancelled: "○" } as const;

function TurnEnd({ item }: { item: Extract<Item, { kind: "turnEnd" }> }) {
  const c = useColor();
  const badgeColor =
    item.badge.status === "verified"
      ? c("ok")
      : item.badge.status === "failed"
        ? c("error")
        : c("warn");
  const cost = formatCost(item.usage.costUsd);
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text>
        <Text dimColor>── {item.outcome} · </Text>
        <Text color={badgeColor} bold>
          {badgeLabel(item.badge)}
        </Text>
        <Text dimColor>
          {" "}
          ({item.badge.reason}) · {formatTokens(item.usage)} · {cost} ·{" "}
          {formatSeconds(item.durationMs)}
        </Text>
      </Text>
      {item.reason ? <Text color={c("error")}>{item.reason}</Text> : null}
    </Box>
  );
}

/** One finished transcript item. */
export function ItemView({ item }: { item: Item }) {
  const c = useColor();
  switch (item.kind) {
    case "user":
      return (
        <Box marginTop={1}>
          <Text color={c("user")} bold>
            {item.steer ? "↳ " : "› "}
          </Text>
          <Text>{item.text}</Text>
        </Box>
      );
    case "assistant":
      return <Markdown text={item.text} />;
    case "output":
      return (
        <Box flexDirection="column">
          <Text dimColor>/{item.name}</Text>
          <Markdown text={item.text} />
        </Box>
      );
    case "tool": {
      const color =
        item.status === "ok" ? c("ok") : item.status === "error" ? c("error") : c("warn");
      return (
        <Box flexDirection="column">
          <Text>
            <Text color={color}>{STATUS_MARK[item.status]} </Text>
            <Text bold>{item.title}</Text>
            <Text dimColor>
              {item.status === "ok" ? "" : ` ${item.status}`} · {formatSeconds(item.durationMs)}
            </Text>
          </Text>
          {item.display ? <Display display={item.display} /> : null}
        </Box>
      );
    }
    case "turnEnd":
      return <TurnEnd item={item} />;
    case "notice":
      return (
        <Text
          color={
            item.level === "error" ? c("error") : item.level === "warning" ? c("warn") : undefined
          }
        >
          {item.level === "info" ? "ℹ" : "!"} {item.text}
        </Text>
      );
    default:
      return <Text dimColor>{item.text}</Text>;
  }
}

/** A running tool call: its title and the last line of its progress. */
export function LiveToolView({ tool, frame }: { tool: LiveTool; frame: string }) {
  const c = useColor();
  const last = tool.progress.trimEnd().split("\n").at(-1) ?? "";
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={c("accent")}>{frame} </Text>
        <Text bold>{tool.title}</Text>
        {tool.agentId ? <Text dimColor> ({tool.agentId})</Text> : null}
      </Text>
      {last ? (
        <Text dimColor wrap="truncate-end">
          {"  "}
          {last}
        </Text>
      ) : null}
    </Box>
  );
}
