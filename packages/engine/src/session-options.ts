import type { Shell } from "@z-engine/host";
import type { EventEnvelope } from "@z-engine/protocol";
import type { EditorFiles } from "@z-engine/tools";
import type { SessionOverrides } from "./settings/session-config.js";

/** What a host may choose per session: the overrides, and a listener for its events. */
export interface SessionOptions extends SessionOverrides {
  /** Gets every event of this session, from the first one its opening emits. Should not throw (a throw is ignored). */
  readonly onEvent?: (envelope: EventEnvelope) => void;
  /**
   * The host's editor for text files (an ACP client's fs): Read, Edit, MultiEdit and Write read
   * (and write, when it can) through it, after the same gate and checks on disk (tools'
   * `EditorFiles`). Default: the disk.
   */
  readonly editor?: EditorFiles;
  /**
   * This session's shell (an ACP client's terminals): Bash, background shells and checks run
   * in it. Ignored, with a `session.setup` notice, when the settings turn the sandbox on (the
   * sandboxed shell wins), and when the engine was given its own `shell`.
   */
  readonly shell?: Shell;
  /**
   * A settings object for this session only (shaped like settings.toml, e.g. an editor's MCP
   * servers as `{ mcp: { servers } }`), laid over the engine's `settings` (tables merge, other
   * values replace) at the user level: project files still win, and it stays through a
   * reload on trust. Bad keys become `settings.problem` notices.
   */
  readonly settings?: Readonly<Record<string, unknown>>;
  /**
   * The id of the session `createSession` or `forkSession` makes, when the host names it
   * (Claude Code's `--session-id` UUID); default a new `ses_…` id. The store rejects an unsafe
   * id (`invalidSessionId`) and one a session already has (`exists`). `openSession` ignores it.
   */
  readonly sessionId?: string;
}
