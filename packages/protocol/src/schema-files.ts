import { engineCommandJsonSchema, eventEnvelopeJsonSchema } from "./json-schema.js";

/** The generated schema files of this package, by path relative to the package root. */
export function schemaFiles(): Record<string, string> {
  const text = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;
  return {
    "schema/commands.schema.json": text(engineCommandJsonSchema()),
    "schema/events.schema.json": text(eventEnvelopeJsonSchema()),
  };
}
