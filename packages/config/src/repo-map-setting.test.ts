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

describe("context.repo_map_tokens", () => {
  it("defaults to 1000 tokens", () => {
    expect(load().settings.context.repo_map_tokens).toBe(1000);
  });

  it("takes a size from the settings, and 0 turns the map off", async () => {
    await world.write("config/settings.toml", "[context]\nrepo_map_tokens = 0\n");
    const { settings, problems } = load();
    expect(problems).toEqual([]);
    expect(settings.context.repo_map_tokens).toBe(0);
  });

  it("reports a negative or fractional size and keeps the default", async () => {
    await world.write("config/settings.toml", "[context]\nrepo_map_tokens = -5\n");
    const { settings, problems } = load();
    expect(problems.map((p) => p.key)).toEqual(["context.repo_map_tokens"]);
    expect(settings.context.repo_map_tokens).toBe(1000);
  });
});
