import { defaultSettings, type LoadedSettings } from "@z-engine/config";
import { describe, expect, it } from "vitest";
import { sessionConfig } from "./session-config.js";

function loaded(): LoadedSettings {
  const settings = defaultSettings();
  settings.mcp.servers = {
    fromSettings: { command: "settings-server" },
  } as typeof settings.mcp.servers;
  return { settings, layers: [], problems: [], trusted: true, withheld: [] };
}

describe("sessionConfig's overrides", () => {
  it("mcpServers replaces the settings' servers (strict); without it they stay", () => {
    const strict = sessionConfig(loaded(), {
      mcpServers: { only: { command: "flag-server" } } as never,
    });
    expect(Object.keys(strict.settings.mcp.servers)).toEqual(["only"]);
    expect(Object.keys(sessionConfig(loaded()).settings.mcp.servers)).toEqual(["fromSettings"]);
  });

  it("maxBudgetUsd becomes the per-turn cap beside the session's own", () => {
    expect(sessionConfig(loaded(), { maxBudgetUsd: 0.25 }).turnCostCapUsd).toBe(0.25);
    expect(sessionConfig(loaded()).turnCostCapUsd).toBeUndefined();
  });
});
