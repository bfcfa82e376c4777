import { createProjectFileReader } from "@z-engine/host";
import type { DefinitionDoors } from "../definitions/discover.js";

/** The doors a session gives its definition loaders, with no Read rules: for unit tests. */
export function testDoors(projectRoot: string): DefinitionDoors {
  return {
    project: createProjectFileReader({ roots: [projectRoot] }),
    user: createProjectFileReader({ roots: ["/"] }),
  };
}
