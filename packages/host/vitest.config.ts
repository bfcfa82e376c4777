import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "host",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
