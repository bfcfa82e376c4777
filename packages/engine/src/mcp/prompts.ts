import {
  type McpLoginResult,
  mcpToolName,
  type McpPromptInfo,
  type PromptText,
  sanitizeMcpName,
} from "@z-engine/integrations";
import type { McpServerStatus } from "@z-engine/protocol";
import type { McpHub } from "./hub.js";

/** An MCP prompt as a slash command: `/mcp__<server>__<prompt>`. */
export interface McpPromptCommand {
  /** The command's name without the slash, e.g. `mcp__github__review`. */
  readonly name: string;
  readonly server: string;
  readonly prompt: McpPromptInfo;
}

/** A prompt fetched for a command, or why it cannot run (a notice instead of a turn). */
export type McpPromptFetch =
  | { readonly ok: true; readonly prompt: PromptText }
  | { readonly ok: false; readonly error: string };

/**
 * What a host and the command catalog get of a session's MCP servers: their states, a wait
 * for the starts in flight, and the prompts of ready servers as slash commands.
 */
export interface SessionMcp {
  /** Each configured server's state, in configuration order. */
  servers(): McpServerStatus[];
  /** Resolves once every server start begun so far has finished (ready or failed). */
  settled(): Promise<void>;
  /** The prompts of ready servers; a server whose listing fails is left out. Never rejects. */
  prompts(signal?: AbortSignal): Promise<McpPromptCommand[]>;
  /**
   * Fills a prompt command's arguments from `args` (positional words in the prompt's order,
   * or `key=value` words) and fetches it. A missing required argument, an unknown command or
   * a server error resolves `{ ok: false, error }`. Never rejects.
   */
  getPrompt(command: string, args: string, signal?: AbortSignal): Promise<McpPromptFetch>;
  /**
   * The login action of a server whose state is `needsLogin`: OAuth in the user's browser,
   * which `open` is given the authorization page to show (the engine opens nothing itself),
   * then the server restarts and its tools join. Rejects with an Error saying why (unknown
   * server, not remote, refused, timed out, cancelled through `signal`).
   */
  login(
    server: string,
    open: (url: URL) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<McpLoginResult>;
  /** Forgets a server's tokens and restarts it (it then needs a login). Resolves true when there were any. */
  logout(server: string): Promise<boolean>;
}

/** Splits arguments into words, keeping "quoted phrases" whole. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? "");
  return out;
}

/** The prompt's arguments from the command's text, or the names of the missing required ones. */
export function promptArguments(
  prompt: McpPromptInfo,
  text: string,
): { args: Record<string, string>; missing: string[] } {
  const known = new Set(prompt.arguments.map((a) => a.name));
  const list = words(text);
  const named =
    list.length > 0 && list.every((w) => known.has(w.split("=")[0] ?? "") && w.includes("="));
  const args: Record<string, string> = {};
  if (named)
    for (const w of list) {
      const at = w.indexOf("=");
      args[w.slice(0, at)] = w.slice(at + 1);
    }
  else {
    prompt.arguments.forEach((a, i) => {
      const last = i === prompt.arguments.length - 1;
      const value = last ? list.slice(i).join(" ") : list[i];
      if (value) args[a.name] = value;
    });
  }
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  return { args, missing };
}

/**
 * Why an `/mcp__<server>__<prompt>` command cannot be found, after waiting for the servers it
 * may come from (their sanitized name matches) to finish starting, each up to its start
 * timeout: `zeng -p "/mcp__s__p"` runs before the servers are ready. Undefined when a
 * server of that name is ready (the caller looks the command up again).
 */
export async function awaitPromptServer(hub: McpHub, command: string): Promise<string | undefined> {
  const part = /^mcp__(.+?)__/.exec(command)?.[1];
  if (!part) return `no MCP prompt /${command}`;
  const servers = hub.status().filter((s) => sanitizeMcpName(s.name) === part);
  if (servers.length === 0) return `no MCP server "${part}" is configured for /${command}`;
  if (
    servers.some(
      (s) => s.state === "starting" || s.state === "stopped" || s.state === "disconnected",
    )
  )
    await hub.startsSettled();
  const now = hub.status().filter((s) => sanitizeMcpName(s.name) === part);
  if (now.some((s) => s.state === "ready")) return undefined;
  const s = now[0];
  return s
    ? `the MCP server "${s.name}" of /${command} is ${s.state === "needsLogin" ? "waiting for a login" : s.state}${s.error ? `: ${s.error}` : ""}`
    : undefined;
}

/** The {@link SessionMcp} of a hub. */
export function sessionMcp(hub: McpHub): SessionMcp {
  const never = new AbortController().signal;
  const prompts = async (signal = never): Promise<McpPromptCommand[]> => {
    const out: McpPromptCommand[] = [];
    for (const conn of hub.connections()) {
      if (conn.state !== "ready" || !conn.offers("prompts")) continue;
      const listed = await conn.listPrompts(signal).catch(() => []);
      for (const prompt of listed)
        out.push({ name: mcpToolName(conn.name, prompt.name), server: conn.name, prompt });
    }
    return out;
  };
  return {
    servers: () => hub.status(),
    settled: () => hub.settled(),
    login: (server, open, signal) => hub.login(server, open, signal),
    logout: (server) => hub.logout(server),
    prompts,
    async getPrompt(command, text, signal = never) {
      const found = (await prompts(signal)).find((p) => p.name === command);
      if (!found) return { ok: false, error: `no MCP prompt /${command} on a ready server` };
      const { args, missing } = promptArguments(found.prompt, text);
      if (missing.length > 0)
        return { ok: false, error: `/${command} needs the argument ${missing.join(", ")}` };
      try {
        const prompt = await hub
          .connection(found.server)
          ?.getPrompt(found.prompt.name, args, signal);
        return prompt ? { ok: true, prompt } : { ok: false, error: `${found.server} is gone` };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    },
  };
}
