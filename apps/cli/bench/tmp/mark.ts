import { startFakeProvider } from "@z-engine/testkit";
import { startPane } from "../../src/tui/e2e/tmux.test.helpers.js";
import { benchHome, MAIN } from "../world.js";
const provider = await startFakeProvider({ script: [] });
const world = await benchHome();
const env = { ...world.env(provider), TERM: "xterm-256color" };
for (let i = 0; i < Number(process.argv[2] ?? 8); i++) {
  const pane = startPane([process.execPath, "--import", "/tmp/mark.mjs", MAIN], { env, cwd: world.repo.root });
  await pane.waitFor("type a message");
  await pane.kill();
}
await provider.close(); await world.dispose();
