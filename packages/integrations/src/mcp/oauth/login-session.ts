import type { Loopback } from "./loopback.js";
import type { InteractiveLogin, StoredOAuthProvider } from "./provider.js";

/** What a connection that may log in is given: where the browser comes back, and how to send it. */
export interface McpLoginOptions {
  readonly loopback: Loopback;
  /** Sends the user's browser (or a scripted user agent) to the authorization page. */
  readonly open: (url: URL) => Promise<void>;
  /** How long the user has to come back from one authorization page. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/** How many times in a row one request may be sent back to the browser (step-up included). */
export const MAX_AUTHORIZATIONS = 3;

/** The provider's interactive side, for {@link McpLoginOptions}. */
export function interactive(login: McpLoginOptions): InteractiveLogin {
  return {
    redirectUrl: login.loopback.redirectUrl,
    prepare: (state) => login.loopback.prepare(state),
    open: login.open,
  };
}

/**
 * After the SDK sent the browser to the authorization page (its `UnauthorizedError`), waits
 * for the code to come back with the state of that request and exchanges it for tokens.
 * Rejects with the loopback's McpError (refused, cancelled, timed out).
 */
export async function completeAuthorization(
  login: McpLoginOptions,
  provider: StoredOAuthProvider,
  finishAuth: (code: string) => Promise<void>,
): Promise<void> {
  const state = provider.pendingState ?? "";
  const code = await login.loopback.expect(state, login.signal, login.timeoutMs);
  await finishAuth(code);
}
