// biome-ignore-all lint/suspicious/noTemplateCurlyInString: .mcp.json files hold ${VAR} text.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "./load.js";
import { createWorld, type World } from "./world.test.helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(() => world.dispose());

const load = () =>
  loadSettings({ env: world.env, paths: world.paths, projectRoot: world.project, trusted: true });

describe(".mcp.json as real projects write it", () => {
  it("takes entries without type, with $schema/$comment/description/link, names with spaces, ${VAR} urls and sse", async () => {
    await world.write(
      "project/.mcp.json",
      JSON.stringify({
        $schema: "https://example.com/mcp.schema.json",
        mcpServers: {
          "my files": {
            command: "npx",
            args: ["-y", "srv"],
            $comment: "local",
            description: "Reads my files",
            link: "https://example.com/srv",
          },
          api: { url: "${API_URL:-http://localhost:3000}/mcp", headers: { Auth: "${TOKEN}" } },
          legacy: { type: "sse", url: "http://localhost:4000/sse", timeout: 5000 },
          off: { type: "streamable-http", url: "https://x.example/mcp", enabled: false },
          broken: { args: ["nothing to run"] },
        },
      }),
    );
    const { settings, problems } = load();
    expect(settings.mcp.servers).toEqual({
      "my files": { command: "npx", args: ["-y", "srv"] },
      api: { url: "${API_URL:-http://localhost:3000}/mcp", headers: { Auth: "${TOKEN}" } },
      legacy: { type: "sse", url: "http://localhost:4000/sse", timeout: 5000 },
      off: { url: "https://x.example/mcp", enabled: false },
    });
    expect(problems.map((p) => [p.key, p.message])).toEqual([
      [
        "mcpServers.broken",
        "an MCP server needs exactly one of `command` (stdio) or `url` (streamable HTTP)",
      ],
    ]);
  });

  it("checks type against command and url in settings.toml", async () => {
    await world.write(
      "project/.z-engine/settings.toml",
      `[mcp.servers.a]\ntype = "sse"\ncommand = "x"\n[mcp.servers.b]\ntype = "sse"\nurl = "http://h/sse"\n`,
    );
    const { settings, problems } = load();
    expect(Object.keys(settings.mcp.servers)).toEqual(["b"]);
    expect(problems.map((p) => p.key)).toEqual(["mcp.servers.a"]);
  });
});
