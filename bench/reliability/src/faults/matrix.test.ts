import { describe, it } from "vitest";
import { FAULT_ROWS, WIRE_FORMATS } from "./matrix.js";

// The provider fault matrix through the engine: real llm clients over real HTTP to the fake
// provider, both wire formats, the retry clock injected (no real waits).
describe.each(WIRE_FORMATS)("the provider fault matrix over %s", (format) => {
  it.each(FAULT_ROWS.map((row) => [row.name, row] as const))("%s", (_name, row) => row.run(format));
});
