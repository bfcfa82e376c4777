import { defineConfig } from "vitest/config";

// One run for the whole workspace: every package and app is a project with its own config.
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "bench/*", "checks"],
  },
});
