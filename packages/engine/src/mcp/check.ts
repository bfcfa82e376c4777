import { realpath } from "node:fs/promises";
import { loadSettings, type Paths, type TrustStore } from "@z-engine/config";
import { ReminderQueue } from "@z-engine/context";
import type { McpServerStatus } from "@z-engine/protocol";
import { mcpContext } from "../launch/child-launch.js";
import { scrubbedEnvironment } from "../util/secrets.js";
import { McpHub } from "./hub.js";
import { mcpTokenStore } from "./session-hooks.js";

/** What `zeng mcp list` shows: each server's state once started, and whether trust withheld the project's. */
export interface McpCheck {
  readonly projectRoot: string;
  readonly servers: readonly McpServerStatus[];
  /** True when the project sets servers that start only once the folder is trusted. */
  readonly withheld: boolean;
}

/**
 * Starts the MCP servers a session of `folder` would start (project ones only when the folder
 * is trusted), waits until each is ready or failed, and stops them. No session is created.
 * Rejects only when the folder does not exist.
 */
export async function checkMcpServers(options: {
  readonly folder: string;
  readonly paths: Paths;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly trustStore: TrustStore;
  readonly clock: () => number;
}): Promise<McpCheck> {
  const projectRoot = await realpath(options.folder);
  const loaded = loadSettings({
    env: options.env,
    paths: options.paths,
    projectRoot,
    trusted: options.trustStore,
  });
  const hub = new McpHub({
    journal: { emit: () => {}, notice: async () => {} },
    reminders: new ReminderQueue(),
    env: options.env,
    clock: options.clock,
    authStore: mcpTokenStore(options.paths.dataDir),
  });
  const launch = { childEnv: scrubbedEnvironment(options.env), paths: options.paths };
  hub.reconcile(loaded.settings.mcp.servers, mcpContext(launch, projectRoot, loaded));
  try {
    await hub.settled();
    return {
      projectRoot,
      servers: hub.status(),
      withheld: loaded.withheld.includes("mcp.servers"),
    };
  } finally {
    await hub.close();
  }
}
