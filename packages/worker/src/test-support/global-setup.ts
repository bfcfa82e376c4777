import type { TestProject } from "vitest/node";
import { setupServices } from "../../../../scripts/test-services.mjs";

// Postgres (the shared store) and Redis (the queue) on loopback ports for this package's tests.
export default (project: TestProject) => setupServices(project, ["postgres", "redis"]);
