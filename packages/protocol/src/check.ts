import { z } from "zod";
import { lazily } from "./lazy.js";
import { ArtifactRef } from "./artifact.js";
import { CheckId, CheckRunId } from "./ids.js";

/** What a check proves. Only test, build and typecheck runs can make a turn Verified. */
export const CheckKind = lazily(() => z.enum(["test", "build", "typecheck", "lint", "format"]));
export type CheckKind = z.infer<typeof CheckKind>;

/** A check the agent can run with Verify, discovered from build files or configured. */
export const CheckDefinition = lazily(() =>
  z.object({
    id: CheckId,
    kind: CheckKind,
    /** The shell command, e.g. `npm test` or `npm run build`. */
    command: z.string().min(1),
    /** Working folder relative to the project root; `.` for the root. */
    cwd: z.string(),
    source: z.enum(["discovered", "configured"]),
  }),
);
export type CheckDefinition = z.infer<typeof CheckDefinition>;

/** Test counts parsed from a runner's output. */
export const TestCounts = lazily(() =>
  z.object({
    passed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
  }),
);
export type TestCounts = z.infer<typeof TestCounts>;

/** Evidence: one recorded run of a check. */
export const CheckRecord = lazily(() =>
  z.object({
    runId: CheckRunId,
    checkId: CheckId,
    kind: CheckKind,
    command: z.string(),
    cwd: z.string(),
    /** Null when the process was killed (timeout, cancel) before it exited. */
    exitCode: z.number().int().nullable(),
    passed: z.boolean(),
    counts: TestCounts.nullable(),
    startedAt: z.number(),
    durationMs: z.number().nonnegative(),
    /** The end of the output, inline. */
    outputTail: z.string(),
    /** All of the output. */
    output: ArtifactRef.nullable(),
    /** Workspace fingerprints taken right before and right after the run. */
    fingerprintBefore: z.string(),
    fingerprintAfter: z.string(),
  }),
);
export type CheckRecord = z.infer<typeof CheckRecord>;

/** The verification modes that act at the stop boundary. */
export const VerificationMode = lazily(() => z.enum(["off", "report", "auto", "strict"]));
export type VerificationMode = z.infer<typeof VerificationMode>;

/** The verification badge of a turn, read from check records only. */
export const BadgeStatus = lazily(() =>
  z.enum(["verified", "unverified", "failed", "notApplicable"]),
);
export type BadgeStatus = z.infer<typeof BadgeStatus>;

export const Badge = lazily(() =>
  z.object({
    status: BadgeStatus,
    /** One sentence for people: which check verified or failed, or what is stale or missing. */
    reason: z.string(),
    /** The checks the verdict rests on (the passing, failing or stale ones). */
    checks: z.array(CheckId),
  }),
);
export type Badge = z.infer<typeof Badge>;
