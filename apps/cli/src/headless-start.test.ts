import { resolvePaths } from "@z-engine/config";
import { describe, expect, it } from "vitest";
import { dataDirOf } from "./headless-start.js";

describe("dataDirOf", () => {
  it("names the same data folder as config's resolvePaths", () => {
    const envs = [
      { HOME: "/home/a" },
      { HOME: "/home/a", ZENGINE_HOME: "/data/z" },
      { HOME: "/home/a", ZENGINE_HOME: "relative/z" },
      { HOME: "/home/a", ZENGINE_HOME: "" },
      { HOME: "/home/a", XDG_DATA_HOME: "/xdg" },
      { HOME: "/home/a", XDG_DATA_HOME: "not-absolute" },
      { HOME: "/home/a", XDG_DATA_HOME: "/xdg", ZENGINE_HOME: "/z" },
      { HOME: "" },
      {},
    ];
    for (const env of envs) expect(dataDirOf(env)).toBe(resolvePaths(env).dataDir);
  });
});
