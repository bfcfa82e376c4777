import type { Engine, SessionOverrides } from "@z-engine/engine";

/** What the agent says it is in `initialize` (`agentInfo`). */
export interface AcpAgentInfo {
  readonly name: string;
  readonly title?: string;
  readonly version: string;
}

/** The options of {@link createAcpAgent}. Only `engine` is required. */
export interface AcpAgentOptions {
  /** The engine every session of the connection runs on (the host owns it and shuts it down). */
  readonly engine: Engine;
  /** Default: `{ name: "z-engine", title: "Z Engine", version: "0.0.0" }`. */
  readonly agentInfo?: AcpAgentInfo;
  /**
   * What every session opens with (mode, model, verification, trusted...): the host's
   * command-line choices. An ACP client changes the mode and model later itself.
   */
  readonly session?: SessionOverrides;
  /**
   * Models offered in the model selector besides the session's own (`session/set_config_option`
   * with category `model`, and the older `session/set_model`). Default: none.
   */
  readonly models?: readonly string[];
  /**
   * The folder whose provider settings `initialize` checks for a key before any session
   * (default `process.cwd()`): with none, the auth methods are offered.
   */
  readonly folder?: string;
  /**
   * The arguments a client appends to the agent's command for terminal login (ACP's
   * `terminal` auth method, offered to clients that support it), e.g. `["login"]` for
   * `zeng acp login`. Default: no terminal method.
   */
  readonly terminalLoginArgs?: readonly string[];
}
