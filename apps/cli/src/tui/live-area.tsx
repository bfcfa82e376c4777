import { Box, Text } from "ink";
import { useEffect, useState } from "react";
import { LiveToolView, Markdown, ThinkingView } from "./items.js";
import { tailLines } from "./live-text.js";
import { useColor } from "./theme.js";
import type { View } from "./view.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Running tools shown at once (two rows each); the rest are counted. */
const MAX_TOOLS = 4;

function useSpinner(running: boolean): string {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 120);
    return () => clearInterval(timer);
  }, [running]);
  return FRAMES[frame] as string;
}

/** Rows a text takes at a width (each line wraps). */
export function rowsOf(text: string, columns: number): number {
  const w = Math.max(1, columns);
  return text.split("\n").reduce((n, line) => n + Math.max(1, Math.ceil(line.length / w)), 0);
}

/** The last of the streaming thinking that fits in `rows` rows at `columns`. */
function thinkingTail(thinking: string, rows: number, columns: number): string {
  const text = tailLines(thinking.trim(), Math.max(1, rows - 1)).text;
  const cap = Math.max(1, rows - 1) * Math.max(1, columns) - 2;
  return text.length > cap ? `…${text.slice(-(cap - 1))}` : text;
}

/**
 * What the running turn shows above the input, in at most `rows` rows: the streaming paragraph
 * (its last lines when it is taller), the running tools, or the spinner. Ink redraws this part
 * on every frame, so it must stay shorter than the screen: a taller frame makes ink clear the
 * whole terminal on every frame.
 */
export function LiveArea({ view, rows, columns }: { view: View; rows: number; columns: number }) {
  const c = useColor();
  const frame = useSpinner(view.running);
  const tools = view.tools.slice(-MAX_TOOLS);
  const more = view.tools.length - tools.length;
  const textRows = Math.max(1, rows - tools.length * 2 - (more > 0 ? 1 : 0));
  let live = view.live;
  let hidden = 0;
  if (live && rowsOf(live, columns) > textRows) {
    const tail = tailLines(live, textRows - 1);
    live = tail.text;
    hidden = tail.hidden;
    while (rowsOf(live, columns) > textRows - 1 && live.includes("\n")) {
      live = live.slice(live.indexOf("\n") + 1);
      hidden++;
    }
  }
  return (
    <Box flexDirection="column">
      {hidden > 0 ? (
        <Text dimColor>… {hidden} lines above (printed when the paragraph ends)</Text>
      ) : null}
      {view.thinking && !live ? (
        <ThinkingView text={thinkingTail(view.thinking, textRows, columns)} />
      ) : null}
      {live ? <Markdown text={live} /> : null}
      {more > 0 ? <Text dimColor>{more} more running</Text> : null}
      {tools.map((tool) => (
        <LiveToolView key={tool.toolCallId} tool={tool} frame={frame} />
      ))}
      {view.running && view.tools.length === 0 && !view.live && !view.thinking ? (
        <Text color={c("accent")}>{frame} working… (Esc to interrupt)</Text>
      ) : null}
    </Box>
  );
}
