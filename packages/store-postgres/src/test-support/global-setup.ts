import type { TestProject } from "vitest/node";
import { setupServices } from "../../../../scripts/test-services.mjs";

// A Postgres server on a loopback port for this package's tests (see scripts/test-services.mjs).
export default (project: TestProject) => setupServices(project, ["postgres"]);
