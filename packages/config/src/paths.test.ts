import { describe, expect, it } from "vitest";
import { resolvePaths } from "./paths.js";

describe("resolvePaths", () => {
  it("prefers ZENGINE_CONFIG_HOME and ZENGINE_HOME", () => {
    const paths = resolvePaths({
      HOME: "/h",
      ZENGINE_CONFIG_HOME: "/c",
      ZENGINE_HOME: "/d",
      XDG_CONFIG_HOME: "/xc",
      XDG_DATA_HOME: "/xd",
    });
    expect(paths).toEqual({
      home: "/h",
      configDir: "/c",
      dataDir: "/d",
      userSettingsFile: "/c/settings.toml",
      trustFile: "/d/trust.json",
    });
  });

  it("falls back to the XDG folders, then to the home folder", () => {
    const xdg = resolvePaths({ HOME: "/h", XDG_CONFIG_HOME: "/xc", XDG_DATA_HOME: "/xd" });
    expect([xdg.configDir, xdg.dataDir]).toEqual(["/xc/z-engine", "/xd/z-engine"]);
    const home = resolvePaths({ HOME: "/h" });
    expect([home.configDir, home.dataDir]).toEqual([
      "/h/.config/z-engine",
      "/h/.local/share/z-engine",
    ]);
  });

  it("treats empty variables as unset and ignores relative XDG folders", () => {
    const paths = resolvePaths({
      HOME: "/h",
      ZENGINE_HOME: "",
      XDG_DATA_HOME: "rel/data",
      XDG_CONFIG_HOME: "",
    });
    expect([paths.configDir, paths.dataDir]).toEqual([
      "/h/.config/z-engine",
      "/h/.local/share/z-engine",
    ]);
  });
});
