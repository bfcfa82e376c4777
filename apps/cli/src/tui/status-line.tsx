import { Box, Text } from "ink";
import { badgeLabel, formatCost, formatTokens } from "./format.js";
import type { Ui } from "./keys.js";
import { useColor } from "./theme.js";
import type { View } from "./view.js";

const EDITOR_LINES = 8;

/** "87% context left", or undefined before the first request. */
export function contextLeft(view: View): string | undefined {
  const c = view.context;
  if (!c || c.used === 0) return undefined;
  const left = Math.max(0, Math.min(100, Math.round(100 - (c.used / c.window) * 100)));
  return `${left}% context left`;
}

/** The prompt being typed, its cursor, and the hint of what the input does; `!` marks shell mode. */
export function EditorView({ ui, running }: { ui: Ui; running: boolean }) {
  const c = useColor();
  const { text, cursor } = ui.editor;
  const shell = text.startsWith("!");
  const before = text.slice(0, cursor);
  const at = text.slice(cursor, cursor + 1);
  const shown = `${before}\u0000${at === "\n" ? " \n" : at || " "}${text.slice(cursor + 1)}`;
  const lines = shown.split("\n");
  const hidden = Math.max(0, lines.length - EDITOR_LINES);
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={shell ? c("warn") : c("dim")}
      paddingX={1}
    >
      {hidden > 0 ? (
        <Text dimColor>
          … {hidden} more lines above ({lines.length} lines)
        </Text>
      ) : null}
      {lines.slice(hidden).map((line, i) => {
        const mark = line.indexOf("\u0000");
        const prefix = i + hidden === 0 ? "› " : "  ";
        if (mark < 0)
          // biome-ignore lint/suspicious/noArrayIndexKey: editor lines have no other identity.
          return <Text key={i}>{prefix + line}</Text>;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: editor lines have no other identity.
          <Text key={i}>
            {prefix + line.slice(0, mark)}
            <Text inverse>{line.slice(mark + 1, mark + 2)}</Text>
            {line.slice(mark + 2)}
            {text === "" ? (
              <Text dimColor>
                {running
                  ? " type to steer the running turn"
                  : " type a message, / for commands, ! for a shell command, @ for files"}
              </Text>
            ) : null}
            {text === "!" ? (
              <Text dimColor> a shell command: it and its output join the conversation</Text>
            ) : null}
          </Text>
        );
      })}
    </Box>
  );
}

/** The editor's height in rows, borders included (for the live area's budget). */
export function editorRows(ui: Ui): number {
  const lines = ui.editor.text.split("\n").length;
  return Math.min(lines, EDITOR_LINES) + (lines > EDITOR_LINES ? 1 : 0) + 2;
}

/** The mode, tokens, cost, context left, badge and model. */
export function StatusLine({ view, ui }: { view: View; ui: Ui }) {
  const c = useColor();
  const badge = view.badge ? ` · ${badgeLabel(view.badge)}` : "";
  const context = contextLeft(view);
  return (
    <Box flexDirection="column">
      {ui.hint ? <Text color={c("warn")}>{ui.hint}</Text> : null}
      <Text wrap="truncate-end">
        <Text color={view.mode === "ask" ? undefined : c("warn")} bold>
          {view.mode}
        </Text>
        <Text dimColor>
          {" "}
          (⇧⇥){ui.expanded ? " · every output whole (ctrl+o folds)" : ""} ·{" "}
          {formatTokens(view.usage)} · {formatCost(view.usage.costUsd)}
          {context ? ` · ${context}` : ""}
          {badge} · {view.model}
        </Text>
      </Text>
    </Box>
  );
}
