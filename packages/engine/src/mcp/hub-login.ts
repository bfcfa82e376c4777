/** OAuth logins of the hub's remote servers (the hub restarts a server after either). */
import {
  hasMcpLogin,
  loginMcpServer,
  logoutMcpServer,
  type McpLoginResult,
} from "@z-engine/integrations";
import { type ConnectionSetting, type Running, unknownServerError } from "./running-server.js";

/** Logs in to the server `name` of `servers`; rejects with McpError (see `McpHub.login`). */
export async function loginServer(
  servers: ReadonlyMap<string, Running>,
  name: string,
  setting: ConnectionSetting,
  open: (url: URL) => Promise<void>,
  signal?: AbortSignal,
): Promise<McpLoginResult> {
  const r = servers.get(name);
  const store = setting.authStore;
  if (!r || !store) throw unknownServerError(name, [...servers.keys()]);
  return await loginMcpServer({
    spec: r.entry.spec,
    env: setting.env,
    store,
    open,
    ...(signal ? { signal } : {}),
    clock: setting.clock,
  });
}

/** Forgets the tokens of the server `name`; true when there were any. Rejects as `loginServer`. */
export async function logoutServer(
  servers: ReadonlyMap<string, Running>,
  name: string,
  setting: ConnectionSetting,
): Promise<boolean> {
  const r = servers.get(name);
  const store = setting.authStore;
  if (!r || !store) throw unknownServerError(name, [...servers.keys()]);
  return await logoutMcpServer(r.entry.spec, setting.env, store);
}

/** The names of `servers` with stored tokens, in order. Never rejects. */
export async function serversLoggedIn(
  servers: ReadonlyMap<string, Running>,
  setting: ConnectionSetting,
): Promise<string[]> {
  const store = setting.authStore;
  if (!store) return [];
  const all = [...servers.entries()];
  const has = await Promise.all(all.map(([, r]) => hasMcpLogin(r.entry.spec, setting.env, store)));
  return all.flatMap(([name], i) => (has[i] ? [name] : []));
}
