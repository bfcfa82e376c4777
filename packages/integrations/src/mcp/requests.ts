import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { convertCallResult, convertReadResult } from "./convert.js";
import { failureText, mcpErrorIn } from "./failure-text.js";
import { MAX_AUTHORIZATIONS } from "./oauth/login-session.js";
import { type PromptText, promptMessages } from "./prompt-text.js";
import { listAll, loadSdk, toPrompt, toResource, toTemplate } from "./sdk.js";
import {
  type McpCallOptions,
  type McpCallResult,
  McpError,
  type McpPromptInfo,
  type McpResourceInfo,
  type McpResourceTemplateInfo,
} from "./types.js";
import { silenceWatchdog } from "./silence-watchdog.js";

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** The SDK's own request timeout for a call: out of the way, the silence watchdog decides. */
const SDK_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The requests a connection sends its server, with one failure policy: a failure becomes an
 * McpError whose message says what went wrong (`cancelled`, `connectionLost`, `timeout`,
 * `needsLogin`, `protocol`); during a login, a request the server sends back for (more)
 * authorization is sent again once the browser came back, at most three times.
 * The connection (its subclass) supplies the client and the life around it.
 */
export abstract class ServerRequests {
  protected client: Client | undefined;
  protected capabilities: { resources: boolean; prompts: boolean } = {
    resources: false,
    prompts: false,
  };

  abstract get name(): string;
  protected abstract get callLimitMs(): number;
  protected abstract get waitEveryMs(): number;
  protected abstract ready(): Promise<Client>;
  /** The client when the connection is ready right now (no reconnect under way), else undefined. */
  protected abstract readyNow(): Client | undefined;
  protected abstract tailNote(): string;
  protected abstract current(client: Client): boolean;
  protected abstract onRequestFailed(error: unknown, sdk: Sdk): Promise<boolean> | boolean;
  /** How many of the server's questions (elicitations) the user is answering right now. */
  protected asking = 0;
  /** Authorization pages opened since the last request that succeeded. */
  protected abstract readonly authorizations: { count: number };

  /** Wraps a request so that failures become McpError with a clear message. */
  private async request<T>(what: string, signal: AbortSignal, run: (c: Client) => Promise<T>) {
    for (let attempt = 1; ; attempt++) {
      // A ready connection is used at once; `ready()` waits for (or starts) a reconnect.
      const client = this.readyNow() ?? (await this.ready());
      try {
        const result = await run(client);
        this.authorizations.count = 0;
        return result;
      } catch (error) {
        if (signal.aborted)
          throw new McpError("cancelled", `${what} was cancelled`, { cause: error });
        if (!this.current(client))
          throw new McpError(
            "connectionLost",
            `the connection to "${this.name}" closed during ${what}${this.tailNote()}`,
            { cause: error },
          );
        const sdk = await loadSdk();
        const own = mcpErrorIn(error);
        if (own?.code === "needsLogin") {
          await this.onRequestFailed(error, sdk);
          throw own;
        }
        if (own?.code === "timeout") throw own;
        if (attempt <= MAX_AUTHORIZATIONS && (await this.onRequestFailed(error, sdk))) continue;
        const message = failureText(error, this.name, false);
        const code = /timed out/i.test(message) ? "timeout" : "protocol";
        throw new McpError(code, `${what} failed: ${message}`, { cause: error });
      }
    }
  }

  /**
   * Calls a tool; cancelling `signal` sends `notifications/cancelled`, progress notifications
   * reach `onProgress` and restart the timeout, silence is reported to `onWaiting`. Resolves
   * with the converted result (a tool's own error is a result with `isError`); rejects with
   * {@link McpError} when the server is gone or wants a login, the call timed out or was
   * cancelled, or the server answered with a protocol error.
   */
  callTool(
    tool: string,
    args: Record<string, unknown>,
    options: McpCallOptions & { readonly vision?: boolean },
  ): Promise<McpCallResult> {
    return this.request(`the call of ${tool}`, options.signal, async (client) => {
      const watchdog = silenceWatchdog({
        limitMs: this.callLimitMs,
        everyMs: this.waitEveryMs,
        ...(options.onWaiting ? { onWaiting: options.onWaiting } : {}),
        paused: () => this.asking > 0,
      });
      try {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, {
          signal: AbortSignal.any([options.signal, watchdog.signal]),
          // The watchdog times the silence (and pauses while the user answers the server).
          timeout: SDK_TIMEOUT_MS,
          onprogress: (p: { progress: number; total?: number; message?: string }) => {
            watchdog.heard();
            options.onProgress?.(
              p.message ?? `progress ${p.progress}${p.total ? `/${p.total}` : ""}`,
            );
          },
        });
        return convertCallResult(result, options.vision ?? true);
      } catch (error) {
        throw watchdog.expired && !options.signal.aborted
          ? watchdog.error(`the call of ${tool}`)
          : error;
      } finally {
        watchdog.stop();
      }
    });
  }

  /** Whether the server offers resources / prompts (from its capabilities). */
  offers(kind: "resources" | "prompts"): boolean {
    return this.capabilities[kind];
  }

  /** Every resource the server lists. Rejects with McpError. */
  listResources(signal: AbortSignal): Promise<McpResourceInfo[]> {
    return this.request("listing resources", signal, async (client) => {
      const items = await listAll((cursor) =>
        client
          .listResources(cursor ? { cursor } : {}, { signal, timeout: this.callLimitMs })
          .then((r) => ({ items: r.resources, next: r.nextCursor })),
      );
      return items.map(toResource);
    });
  }

  /** Every resource template the server lists. Rejects with McpError. */
  listResourceTemplates(signal: AbortSignal): Promise<McpResourceTemplateInfo[]> {
    return this.request("listing resource templates", signal, async (client) => {
      const items = await listAll((cursor) =>
        client
          .listResourceTemplates(cursor ? { cursor } : {}, { signal, timeout: this.callLimitMs })
          .then((r) => ({ items: r.resourceTemplates, next: r.nextCursor })),
      );
      return items.map(toTemplate);
    });
  }

  /** One resource's contents as text blocks. Rejects with McpError. */
  readResource(uri: string, signal: AbortSignal) {
    return this.request(`reading ${uri}`, signal, async (client) =>
      convertReadResult(await client.readResource({ uri }, { signal, timeout: this.callLimitMs })),
    );
  }

  /** Every prompt the server lists. Rejects with McpError. */
  listPrompts(signal: AbortSignal): Promise<McpPromptInfo[]> {
    return this.request("listing prompts", signal, async (client) => {
      const items = await listAll((cursor) =>
        client
          .listPrompts(cursor ? { cursor } : {}, { signal, timeout: this.callLimitMs })
          .then((r) => ({ items: r.prompts, next: r.nextCursor })),
      );
      return items.map(toPrompt);
    });
  }

  /** A prompt filled with `args`, as text messages. Rejects with McpError (e.g. a missing argument). */
  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<PromptText> {
    return this.request(`the prompt ${name}`, signal, async (client) =>
      promptMessages(
        await client.getPrompt({ name, arguments: args }, { signal, timeout: this.callLimitMs }),
      ),
    );
  }
}
