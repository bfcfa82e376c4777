// Writes the JSON Schema of commands and events into schema/. Run: pnpm --filter @z-engine/protocol schema
import { writeFileSync } from "node:fs";
import { schemaFiles } from "../src/schema-files.js";

for (const [path, text] of Object.entries(schemaFiles())) {
  writeFileSync(new URL(`../${path}`, import.meta.url), text);
  console.log(`wrote ${path}`);
}
