import { defineProject } from "vitest/config";

// The sandbox tests run real bubblewrap: `scripts/setup.sh` (the README's test command)
// installs it when it runs as root.
export default defineProject({
  test: {
    name: "host",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
