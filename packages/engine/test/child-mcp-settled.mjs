// A host script whose only pending work is `await session.mcp.settled()` (mcp-servers.test.ts):
// it must print the servers' states and exit 0, not end early with an unsettled await.
// Argument: a JSON object with `home`, `project` and `settings` (the user settings file's text).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine } from "@z-engine/engine";
import { ScriptedModel } from "@z-engine/testkit";

const args = JSON.parse(process.argv[2] ?? "{}");
const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: args.home,
  ZENGINE_CONFIG_HOME: join(args.home, "config"),
  ZENGINE_HOME: join(args.home, "data"),
};
const paths = resolvePaths(env);
mkdirSync(paths.configDir, { recursive: true });
writeFileSync(paths.userSettingsFile, args.settings);
const engine = await createEngine({
  paths,
  env,
  homeDir: args.home,
  catalogSource: "off",
  clientFactory: () => new ScriptedModel([]),
});
const session = await engine.createSession(args.project);
await session.mcp.settled();
console.log(
  `servers ${session.mcp
    .servers()
    .map((s) => `${s.name}=${s.state}`)
    .join(",")}`,
);
await engine.shutdown();
