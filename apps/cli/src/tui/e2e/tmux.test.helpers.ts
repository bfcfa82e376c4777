import { execFileSync } from "node:child_process";
import { afterEach } from "vitest";
import { MAIN, type World, type WorldOptions, world } from "../../e2e/cli.test.helpers.js";

let counter = 0;

/** An SGR escape that sets a foreground or background colour (not bold, dim or a reset). */
export const COLOR_SET = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*(3[0-8]|9[0-7]|4[0-8])m`);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A zeng (or any command) running in its own tmux server, driven by keys and read from the pane. */
export interface Pane {
  /** tmux key names (`Enter`, `Escape`, `BTab`, `C-c`, ...). */
  keys(...names: string[]): void;
  /** Types text literally. */
  type(text: string): void;
  /** Pastes text as a terminal does (tmux paste-buffer -p: bracketed when the app asked for it). */
  paste(text: string): void;
  /** The visible screen as text. */
  screen(): string;
  /** The scrollback and the visible screen, as text (what the user can scroll back to). */
  history(): string;
  /** The visible screen with its colour and style escapes. */
  styledScreen(): string;
  /** Polls the screen until `test` holds (a string is a substring); rejects with the screen after `timeoutMs`. */
  waitFor(
    test: string | RegExp | ((screen: string) => boolean),
    timeoutMs?: number,
  ): Promise<string>;
  /**
   * Polls the scrollback and screen until `test` holds; rejects with them after `timeoutMs`.
   * For counts of lines: a redraw of the live area erases it and writes it again, and a
   * capture can fall between the two, so one capture may miss a line the next one has.
   */
  waitForHistory(test: (history: string) => boolean, timeoutMs?: number): Promise<string>;
  resize(width: number, height: number): void;
  /** Whether the command in the pane has ended. */
  dead(): boolean;
  /** Whether the pane shows the alternate screen buffer (tmux's `alternate_on`). */
  alternate(): boolean;
  /** Scrolls the pane's scrollback as a user does (tmux copy-mode): `pages` up, then back down and out. */
  scroll(pages: number): void;
  /** Stops tmux and waits (at most 8 s) until the command's process has gone. */
  kill(): Promise<void>;
}

/** Runs tmux on its own server (`socket`) with `env`, feeding it `input`; returns what it printed. */
function runTmux(
  socket: string,
  env: Record<string, string>,
  input: string | undefined,
  args: readonly string[],
): string {
  return execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], {
    env,
    encoding: "utf8",
    ...(input === undefined ? {} : { input }),
  });
}

/** The tmux command line that starts `command` in session `t`, of the given size, with exactly `env`. */
function newSessionArgs(
  command: readonly string[],
  options: { env: Record<string, string>; cwd: string; width?: number; height?: number },
): string[] {
  const vars = Object.entries(options.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  // remain-on-exit is set before the session starts, so a command that ends at once stays readable.
  return [
    "start-server",
    ";",
    "set-option",
    "-g",
    "remain-on-exit",
    "on",
    ";",
    "new-session",
    "-d",
    "-s",
    "t",
    "-x",
    String(options.width ?? 80),
    "-y",
    String(options.height ?? 30),
    "-c",
    options.cwd,
    ...vars,
    "--",
    ...command,
  ];
}

/** Starts `command` in a detached tmux session of the given size, with exactly `env`. */
/** Captures until `holds`; rejects with the last capture after `timeoutMs`. */
async function poll(
  capture: () => string,
  holds: (captured: string) => boolean,
  timeoutMs: number,
  what: unknown,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = capture();
    if (holds(s)) return s;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${String(what)}; the capture:\n${s}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function startPane(
  command: readonly string[],
  options: { env: Record<string, string>; cwd: string; width?: number; height?: number },
): Pane {
  const socket = `zeng-tui-${process.pid}-${++counter}`;
  // The tmux server gets a clean environment (no CI=true: ink renders differently in CI).
  const serverEnv = {
    PATH: options.env.PATH ?? "/usr/bin:/bin",
    HOME: options.env.HOME ?? "/tmp",
    TERM: "xterm-256color",
  };
  const tmux = (...args: string[]) => runTmux(socket, serverEnv, undefined, args);
  const tmuxInput = (input: string, ...args: string[]) => runTmux(socket, serverEnv, input, args);
  tmux(...newSessionArgs(command, options));
  const screen = () => tmux("capture-pane", "-p", "-t", "t");
  const history = () => tmux("capture-pane", "-p", "-S", "-", "-E", "-", "-t", "t");
  const matches = (test: string | RegExp | ((s: string) => boolean), s: string) =>
    typeof test === "string" ? s.includes(test) : test instanceof RegExp ? test.test(s) : test(s);
  return {
    keys: (...names) => void tmux("send-keys", "-t", "t", ...names),
    type: (text) => void tmux("send-keys", "-t", "t", "-l", text),
    paste: (text) => {
      tmuxInput(text, "load-buffer", "-b", "zeng", "-");
      tmux("paste-buffer", "-p", "-d", "-b", "zeng", "-t", "t");
    },
    screen,
    history,
    styledScreen: () => tmux("capture-pane", "-p", "-e", "-t", "t"),
    waitFor: (test, timeoutMs = 30_000) => poll(screen, (s) => matches(test, s), timeoutMs, test),
    waitForHistory: (test, timeoutMs = 10_000) => poll(history, test, timeoutMs, test),
    resize: (width, height) =>
      void tmux("resize-window", "-t", "t", "-x", String(width), "-y", String(height)),
    dead: () => tmux("display-message", "-p", "-t", "t", "#{pane_dead}").trim() === "1",
    alternate: () => tmux("display-message", "-p", "-t", "t", "#{alternate_on}").trim() === "1",
    scroll: (pages) => {
      tmux("copy-mode", "-t", "t");
      for (let i = 0; i < pages; i++) tmux("send-keys", "-t", "t", "-X", "page-up");
      for (let i = 0; i < pages; i++) tmux("send-keys", "-t", "t", "-X", "page-down");
      tmux("send-keys", "-t", "t", "-X", "cancel");
    },
    kill: async () => {
      let pid = 0;
      try {
        pid = Number(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").trim());
        tmux("kill-server");
      } catch {
        // Already gone.
      }
      const deadline = Date.now() + 8_000;
      while (pid > 0 && alive(pid) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}

/** zeng in a tmux pane in the world's repo, with the world's environment. */
export function zengPane(
  w: World,
  args: readonly string[] = [],
  extra: Record<string, string> = {},
  size = { width: 80, height: 30 },
): Pane {
  return startPane([process.execPath, MAIN, ...args], {
    env: { ...w.env, ...extra },
    cwd: w.repo.root,
    ...size,
  });
}

/** The input's placeholder: the screen is idle and takes a prompt. */
export const IDLE = "type a message";

/** Types `text` into an idle screen's input and sends it with Enter once it shows. */
export async function submit(p: Pane, text: string): Promise<void> {
  await p.waitFor(IDLE);
  p.type(text);
  await p.waitFor(`› ${text}`);
  p.keys("Enter");
}

/** The messages of the main agent's request `index`, as JSON text to look for tool results in. */
export function requestText(world: World, index: number): string {
  return JSON.stringify((world.mainRequests()[index]?.body as { messages?: unknown })?.messages);
}

/** How many lines of `text` hold `needle` (a status line, an input box: each should be on screen once). */
export function linesWith(text: string, needle: string): number {
  return text.split("\n").filter((line) => line.includes(needle)).length;
}

/**
 * The scrollback and screen once each text is on `counts[text]` lines, as the screen settles
 * (see {@link Pane.waitForHistory}); the last capture when that never comes, for the test's
 * own expectations to report.
 */
export function historyWith(pane: Pane, counts: Readonly<Record<string, number>>): Promise<string> {
  const holds = (h: string) => Object.entries(counts).every(([t, n]) => linesWith(h, t) === n);
  return pane.waitForHistory(holds).catch(() => pane.history());
}

/** The status line's mark: it is in the live area, so the scrollback must hold it exactly once. */
export const STATUS = "(⇧⇥)";

/**
 * A tmux test file's worlds and panes: made through it, each is stopped (the pane) and removed
 * (the world) after its test. Call once at the top of the file.
 */
export function tuiFixture(): {
  world(options: WorldOptions): Promise<World>;
  pane(
    w: World,
    args?: readonly string[],
    extra?: Record<string, string>,
    size?: { width: number; height: number },
  ): Pane;
} {
  let worlds: World[] = [];
  let panes: Pane[] = [];
  afterEach(async () => {
    for (const p of panes) await p.kill();
    for (const w of worlds) await w.dispose();
    panes = [];
    worlds = [];
  }, 30_000);
  return {
    world: async (options) => {
      const w = await world(options);
      worlds.push(w);
      return w;
    },
    pane: (w, args, extra, size) => {
      const p = zengPane(w, args, extra, size);
      panes.push(p);
      return p;
    },
  };
}
