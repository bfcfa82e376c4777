import type { JobId, JobInfo } from "@z-engine/protocol";
import { z } from "zod";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput, textOutput } from "../tool-output.js";
import { describe } from "./describe.js";

function state(job: JobInfo): string {
  if (job.status === "running") return `Job ${job.id} is running.`;
  const code = job.exitCode === null ? "" : ` with exit code ${job.exitCode}`;
  return `Job ${job.id} ${job.status}${code}.`;
}

const JobOutputInput = lazySchema(() =>
  z.strictObject({
    job_id: z.string().min(1).describe("The job's id"),
    filter: z
      .string()
      .optional()
      .describe("Keep only output lines matching this regular expression"),
  }),
);

/** JobOutput: a background job's new output since the last read, and its state. */
export const jobOutputTool = defineTool({
  name: "JobOutput",
  description: describe(
    "JobOutput",
    "Returns a background job's output since the last read and whether it is still running.",
  ),
  inputSchema: JobOutputInput,
  inputJsonSchema: builtinInputJsonSchema("JobOutput"),
  requires: ["jobs"],
  isReadOnly: () => true,
  title: (input) => `JobOutput ${input.job_id}`,
  call: async (input, ctx) => {
    let filter: RegExp | null = null;
    if (input.filter !== undefined) {
      try {
        filter = new RegExp(input.filter);
      } catch (error) {
        return errorOutput(`Invalid filter: ${(error as Error).message}`);
      }
    }
    const jobs = ctx.ports.jobs;
    if (!jobs) return errorOutput("Background jobs are not available in this session.");
    const found = await jobs.readOutput(input.job_id as JobId);
    if (!found) return errorOutput(`No job with id ${input.job_id}.`);
    const lines = filter
      ? found.output.split("\n").filter((line) => filter.test(line))
      : [found.output];
    const output = lines.join("\n");
    return textOutput(`${state(found.job)}\n\n${output === "" ? "(no new output)" : output}`);
  },
});

const JobKillInput = lazySchema(() =>
  z.strictObject({ job_id: z.string().min(1).describe("The job's id") }),
);

/** JobKill: stops a background job's whole process tree. */
export const jobKillTool = defineTool({
  name: "JobKill",
  description: describe("JobKill", "Stops a running background job by its job_id."),
  inputSchema: JobKillInput,
  inputJsonSchema: builtinInputJsonSchema("JobKill"),
  requires: ["jobs"],
  title: (input) => `JobKill ${input.job_id}`,
  call: async (input, ctx) => {
    const jobs = ctx.ports.jobs;
    if (!jobs) return errorOutput("Background jobs are not available in this session.");
    const job = await jobs.kill(input.job_id as JobId);
    return job ? textOutput(state(job)) : errorOutput(`No job with id ${input.job_id}.`);
  },
});
