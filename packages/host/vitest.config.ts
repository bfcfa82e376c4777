import { defineProject } from "vitest/config";

// The sandbox tests run real bubblewrap: `scripts/setup.sh` (the README's test command)
// installs it when it runs as root.
export default defineProject({
  test: {
    name: "host",
    // Tests run real git, shells and servers: the timeout is a backstop for a loaded
    // machine (tests wait on events), not a measure of speed.
    testTimeout: 30_000,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
