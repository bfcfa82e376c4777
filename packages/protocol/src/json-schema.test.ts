import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { schemaFiles } from "./schema-files.js";

describe("generated JSON Schema", () => {
  for (const [path, text] of Object.entries(schemaFiles())) {
    it(`${path} is current (regenerate with: pnpm --filter @z-engine/protocol schema)`, () => {
      const onDisk = readFileSync(new URL(`../${path}`, import.meta.url), "utf8");
      expect(onDisk).toBe(text);
    });
  }

  it("describes every command and event type", () => {
    const files = schemaFiles();
    const commands = files["schema/commands.schema.json"] ?? "";
    const events = files["schema/events.schema.json"] ?? "";
    expect(commands).toContain('"resolveApproval"');
    expect(events).toContain('"turnFinished"');
    expect(events).toContain('"costUpdated"');
  });
});
