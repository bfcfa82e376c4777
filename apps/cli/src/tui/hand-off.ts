import { useStdin, useStdout } from "ink";
import { type RefObject, useEffect, useRef, useState } from "react";
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from "./paste.js";

/** Runs `run` with the terminal handed to a child (an editor), then takes it back. */
export type HandOff = <T>(run: () => Promise<T>) => Promise<T>;

const SHOW_CURSOR = "\u001B[?25h";
const HIDE_CURSOR = "\u001B[?25l";

/** The part of a TTY stream's libuv handle that starts and stops reading the terminal. */
interface ReadHandle {
  reading?: boolean;
  readStart?: () => number;
  readStop?: () => number;
}

/**
 * Stops this process reading the terminal and returns what starts it again. Ink's raw mode
 * off and its listener gone are not enough: Node keeps one read pending on the TTY, which
 * takes the first keys typed into the editor (both processes read the same terminal).
 * `net.Socket` stops that read itself the same way (`_handle.readStop()` with `reading`
 * cleared); Node has no public call for it.
 */
export function releaseInput(stdin: NodeJS.ReadStream): () => void {
  stdin.pause();
  const handle = (stdin as unknown as { _handle?: ReadHandle })._handle;
  if (!handle?.reading || typeof handle.readStop !== "function") return () => {};
  handle.reading = false;
  handle.readStop();
  return () => {
    if (handle.reading !== false || typeof handle.readStart !== "function") return;
    handle.reading = true;
    handle.readStart();
  };
}

/**
 * The screen's hand-off of the terminal to a child: `handOff(run)` renders the screen
 * suspended (`suspended` true: the input inactive, so ink turns raw mode off, and the live
 * area gone), stops reading stdin, turns bracketed paste off and shows the cursor, runs
 * `run`, then undoes all of it and calls `redraw` (the screen cleared and the transcript
 * printed again, so the child leaves no ghost frames). `paused` is true meanwhile (for the
 * resize handler). One hand-off at a time: a second waits for the first.
 */
export function useHandOff(
  paused: RefObject<boolean>,
  redraw: () => void,
): { suspended: boolean; handOff: HandOff } {
  const [suspended, setSuspended] = useState(false);
  const { stdin } = useStdin();
  const { stdout } = useStdout();
  const entered = useRef<(() => void) | undefined>(undefined);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  // Resolved in the commit that renders the screen suspended; what follows runs after that
  // commit's effects, the input's among them (ink has turned raw mode off by then).
  useEffect(() => {
    if (!suspended) return;
    const resolve = entered.current;
    entered.current = undefined;
    resolve?.();
  }, [suspended]);
  const handOff = useRef<HandOff>((run) => {
    const turn = queue.current.then(async () => {
      await new Promise<void>((resolve) => {
        entered.current = resolve;
        paused.current = true;
        setSuspended(true);
      });
      const reclaim = releaseInput(stdin);
      stdout.write(BRACKETED_PASTE_OFF + SHOW_CURSOR);
      try {
        return await run();
      } finally {
        reclaim();
        stdout.write(BRACKETED_PASTE_ON + HIDE_CURSOR);
        paused.current = false;
        setSuspended(false);
        redraw();
      }
    });
    queue.current = turn.catch(() => {});
    return turn;
  });
  return { suspended, handOff: handOff.current };
}
