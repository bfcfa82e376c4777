import type { TestProject } from "vitest/node";
import { setupServices } from "../../../../scripts/test-services.mjs";

// A Postgres server on a loopback port for the crash fuzz over the Postgres store (see
// scripts/test-services.mjs: installed by the repository's scripts where this is root with
// apt-get; elsewhere the Postgres subset skips, printing why).
export default (project: TestProject) => setupServices(project, ["postgres"]);
