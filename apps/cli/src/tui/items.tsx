import { Box, Text } from "ink";
import { badgeLabel, formatCost, formatSeconds, formatTokens } from "./format.js";
import { markdownLines } from "./markdown.js";
import { useColor } from "./theme.js";
import { CheckRow, ToolRow } from "./tool-row.js";
import type { Header, Item, LiveTool } from "./view.js";

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

/** The welcome header: where the session runs, with what, and two tips. */
export function HeaderView({ header }: { header: Header }) {
  const c = useColor();
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={c("accent")} paddingX={1}>
      <Text>
        <Text bold color={c("accent")}>
          Z Engine
        </Text>{" "}
        {header.folder}
        {header.branch ? <Text dimColor> on {header.branch}</Text> : null}
      </Text>
      <Text dimColor wrap="truncate-end">
        model {header.model} · {header.mode} mode · key: {header.key}
      </Text>
      <Text dimColor wrap="truncate-end">
        Tip: / lists every command, ! runs a shell command, @ adds a file
      </Text>
      <Text dimColor wrap="truncate-end">
        Tip: Esc interrupts, Esc Esc rewinds, Ctrl+O shows every output in full
      </Text>
    </Box>
  );
}

function TurnEnd({ item }: { item: Extract<Item, { kind: "turnEnd" }> }) {
  const c = useColor();
  const badgeColor =
    item.badge.status === "verified"
      ? c("ok")
      : item.badge.status === "failed"
        ? c("error")
        : c("warn");
  const cost = formatCost(item.usage.costUsd);
  // A cancelled turn says why on its own line once ("interrupted by user"), nothing more.
  const inline = item.outcome === "cancelled" && item.reason ? `: ${item.reason}` : "";
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text>
        <Text dimColor>
          ── {item.outcome}
          {inline} ·{" "}
        </Text>
        <Text color={badgeColor} bold>
          {badgeLabel(item.badge)}
        </Text>
        <Text dimColor>
          {" "}
          ({item.badge.reason}) · {formatTokens(item.usage)} · {cost} ·{" "}
          {formatSeconds(item.durationMs)}
        </Text>
      </Text>
      {item.reason && !inline ? <Text color={c("error")}>{item.reason}</Text> : null}
    </Box>
  );
}

/** A thinking block (`[appearance] show_thinking`): dimmed and marked, so it never reads as the answer. */
export function ThinkingView({ text }: { text: string }) {
  return (
    <Text dimColor italic>
      ✻ {text}
    </Text>
  );
}

/** One finished transcript item. */
export function ItemView({ item }: { item: Item }) {
  const c = useColor();
  switch (item.kind) {
    case "header":
      return <HeaderView header={item.header} />;
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
    case "thinking":
      return <ThinkingView text={item.text} />;
    case "output":
      return (
        <Box flexDirection="column">
          <Text dimColor>{item.name === "bash" ? "! shell" : `/${item.name}`}</Text>
          <Markdown text={item.text} />
        </Box>
      );
    case "tool":
      return <ToolRow item={item} />;
    case "check":
      return (
        <Box flexDirection="column">
          <Text bold>● Check at the end of the turn</Text>
          <CheckRow check={item.check} />
        </Box>
      );
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
      <Text wrap="truncate-end">
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
