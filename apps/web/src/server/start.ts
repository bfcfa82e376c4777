import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Engine } from "@z-engine/engine";
import { listen, type WebServer } from "./http-server.js";
import { newToken } from "./security.js";
import { SessionHub } from "./session-hub.js";
import { loadStaticFiles } from "./static-files.js";

/** What the web server runs over. */
export interface WebServerOptions {
  /**
   * The engine whose sessions the page shows (the caller shuts it down). A promise lets the
   * server listen and serve the page while the engine still loads (start-up).
   */
  readonly engine: Engine | Promise<Engine>;
  /**
   * The data folder the engine uses (`paths.dataDir`): stored sessions are read from it. A
   * promise when the settings still load.
   */
  readonly dataDir: string | Promise<string>;
  /** The port on 127.0.0.1; default 0 (a random free one). */
  readonly port?: number;
  /** The one-time token; default: a fresh random one. */
  readonly token?: string;
  /** Where the bundled page is; default: this package's dist/public. */
  readonly publicDir?: string;
  /** The folder new sessions default to and relative folders are read against; default `process.cwd()`. */
  readonly cwd?: string;
  /**
   * A warning the page shows on every screen (the bin's: no API key found), in words; a
   * promise when it is still being worked out.
   */
  readonly warning?: string | Promise<string | undefined>;
}

const here = dirname(fileURLToPath(import.meta.url));
/**
 * This package's bundled page: dist/public, found from the compiled server (dist/server/) or
 * from the bundled bin (dist/main.js).
 */
export const DEFAULT_PUBLIC_DIR = existsSync(join(here, "public", "app.js"))
  ? join(here, "public")
  : join(here, "..", "public");

/**
 * Starts the web UI's server over an engine: 127.0.0.1 only, a random port, a one-time token
 * in `url`; every request must present the token and this server's own Host and Origin.
 * Rejects when the page was not built or the port cannot be bound.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const files = await loadStaticFiles(options.publicDir ?? DEFAULT_PUBLIC_DIR);
  const cwd = options.cwd ?? process.cwd();
  const hub = new SessionHub(
    Promise.resolve(options.engine),
    Promise.resolve(options.dataDir),
    cwd,
  );
  const warning = Promise.resolve(options.warning).catch(() => undefined);
  const info = async () => {
    const text = await warning;
    return { cwd, home: homedir(), ...(text ? { warning: text } : {}) };
  };
  return listen(hub, files, options.token ?? newToken(), info, options.port ?? 0);
}
