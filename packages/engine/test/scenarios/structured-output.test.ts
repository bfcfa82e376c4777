import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { runStructured, StructuredOutputError } from "../../src/index.js";
import { type Harness, harness, loginProject } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const schema = {
  type: "object",
  properties: { verdict: { type: "string", enum: ["pass", "fail"] } },
  required: ["verdict"],
};

describe("runStructured", () => {
  it("sends a mismatch back with its error and resolves with the value that matches", async () => {
    h = await harness({
      files: loginProject,
      script: [
        reply.text('{"verdict": "maybe"}'),
        reply.text('Here it is:\n```json\n{"verdict": "pass"}\n```'),
      ],
    });
    const run = await runStructured(h.session, "judge the test", schema);
    expect(run).toMatchObject({ output: { verdict: "pass" }, attempts: 2 });
    expect(run.summary.outcome).toBe("completed");
    const second = JSON.stringify(h.model.requests[1]);
    expect(second).toContain("verdict");
    expect(second).toContain("does not match the schema");
  });

  it("gives the last error after maxAttempts, and refuses a schema it cannot read before any turn", async () => {
    h = await harness({ files: loginProject, script: [reply.text("no json here")] });
    const run = await runStructured(h.session, "judge", schema, { maxAttempts: 1 });
    expect(run.output).toBeUndefined();
    expect(run.error).toContain("not JSON");
    await expect(runStructured(h.session, "judge", { type: 12 })).rejects.toBeInstanceOf(
      StructuredOutputError,
    );
    expect(h.model.requests).toHaveLength(1);
  });
});
