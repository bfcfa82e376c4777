/**
 * @z-engine/web: the local web UI. A server on 127.0.0.1 that embeds the engine and serves a
 * bundled React page; the engine's events and commands are its only interface.
 */

/**
 * Starts the server over an engine (see `WebServerOptions`); resolves with its address and a
 * `close()`. Rejects when the page was not built or the port cannot be bound.
 */
export { DEFAULT_PUBLIC_DIR, startWebServer } from "./server/start.js";
export type { WebServerOptions } from "./server/start.js";
/** A running server: `url` (with the token), `port`, `token`, `close()`. */
export type { WebServer } from "./server/http-server.js";
/** One streamed item: the browser's `cursor`, whether it was replayed from the log, the envelope. */
export type { HubChange, SessionEntry, SlashCommand, StreamItem } from "./server/session-hub.js";
/** The page's start-up facts and a sidebar project entry. */
export type { ProjectEntry, ServerInfo } from "./server/app-routes.js";
/** Something waiting on the user in an open session (the Inbox). */
export type { InboxItem } from "./server/inbox.js";
/** The request check: Host, Origin and token; `undefined` when a request may proceed. */
export { checkRequest } from "./server/security.js";
export type { Refusal } from "./server/security.js";
