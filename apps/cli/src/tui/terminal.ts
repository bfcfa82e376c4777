import { useStdout } from "ink";
import { type RefObject, useEffect, useRef, useState } from "react";

/** Clears the screen and the scrollback, cursor home (xterm's ED 2, ED 3). */
export const CLEAR_ALL = "\u001B[2J\u001B[3J\u001B[H";

/** The terminal's size, and a count that changes each time the transcript must be printed again. */
export interface Terminal {
  readonly columns: number;
  readonly rows: number;
  /** Changes when the screen was cleared and the whole transcript must be printed again. */
  readonly generation: number;
  /** Clears the screen and scrollback and prints the transcript again (/clear, an editor, Ctrl+O). */
  readonly redraw: () => void;
}

/**
 * The terminal's size and redraws. When the width changes, a terminal that reflows its lines
 * (tmux, iTerm2, VTE, kitty) re-wraps the frame ink drew last into more or fewer rows than
 * ink erases, which leaves copies of the input box behind; so on each width change the screen
 * and scrollback are cleared and the transcript printed again at the new width. While
 * `paused` holds (an editor has the terminal) a resize changes nothing: the redraw after the
 * hand-off prints at the size then.
 */
export function useTerminal(paused?: RefObject<boolean>): Terminal {
  const { stdout, write } = useStdout();
  const size = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [state, setState] = useState({ ...size(), generation: 0 });
  const width = useRef(state.columns);
  const redraw = useRef(() => {
    width.current = size().columns;
    write(CLEAR_ALL);
    setState((s) => ({ ...s, ...size(), generation: s.generation + 1 }));
  });
  useEffect(() => {
    const resized = () => {
      if (paused?.current) return;
      const now = size();
      if (now.columns !== width.current) {
        width.current = now.columns;
        redraw.current();
      } else setState((s) => ({ ...s, ...now }));
    };
    stdout.on("resize", resized);
    return () => {
      stdout.off("resize", resized);
    };
  });
  return { ...state, redraw: redraw.current };
}
