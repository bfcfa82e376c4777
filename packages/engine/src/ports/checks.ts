import type { Shell } from "@z-engine/host";
import type {
  ArtifactSink,
  Badge,
  CheckDefinition,
  CheckId,
  CheckRecord,
} from "@z-engine/protocol";
import type { CheckPort } from "@z-engine/tools";
import { type CheckRunner, runCheck, selectChecks } from "@z-engine/verify";
import type { Journal } from "../journal/journal.js";

/** What the check port needs from its session. */
export interface CheckHost {
  readonly projectRoot: string;
  readonly journal: Journal;
  readonly shell: Shell;
  readonly artifacts: ArtifactSink;
  readonly clock: () => number;
  fingerprint(): Promise<string>;
  /** The checks of the session (discovered and configured, merged). */
  checks(): readonly CheckDefinition[];
  /** The paths written in the running turn (absolute). */
  changedPaths(): readonly string[];
  /** The session's records, oldest first; each new record is pushed here. */
  readonly records: CheckRecord[];
  /** The badge now, for verificationChanged after each record. */
  badge(): Promise<Badge | null>;
}

/** A check runner on the session's shell (so checks run inside the sandbox when it is on). */
export function shellRunner(shell: Shell, timeoutMs = 30 * 60_000): CheckRunner {
  return async ({ command, cwd, signal }) => {
    const result = await shell.run({
      command,
      cwd,
      timeoutMs,
      ...(signal ? { signal } : {}),
      maxOutputChars: 2_000_000,
    });
    return {
      exitCode: result.exitCode,
      output: result.error ? `${result.output}\n${result.error}` : result.output,
      timedOut: result.timedOut,
    };
  };
}

/**
 * The session's checks for Verify: every run is recorded as evidence (a `check` record, then
 * checkRecorded and verificationChanged). The permission gate ran before, in the batch.
 */
export class SessionChecks implements CheckPort {
  constructor(private readonly host: CheckHost) {}

  checks(): readonly CheckDefinition[] {
    return this.host.checks();
  }

  defaultChecks(): readonly CheckDefinition[] {
    const tests = this.host.checks().filter((c) => c.kind === "test");
    const changed = this.host.changedPaths();
    const selected =
      changed.length > 0
        ? selectChecks(tests, changed, { projectRoot: this.host.projectRoot })
        : [];
    return selected.length > 0 ? selected : tests;
  }

  async run(ids: readonly CheckId[], signal: AbortSignal): Promise<readonly CheckRecord[]> {
    const all = this.host.checks();
    const defs = ids.map((id) => {
      const def = all.find((c) => c.id === id);
      if (!def)
        throw new Error(
          `unknown check "${id}"; known checks: ${all.map((c) => c.id).join(", ") || "none"}`,
        );
      return def;
    });
    const records: CheckRecord[] = [];
    for (const def of defs) {
      const record = await runCheck(def, {
        projectRoot: this.host.projectRoot,
        runner: shellRunner(this.host.shell),
        fingerprint: () => this.host.fingerprint(),
        artifacts: this.host.artifacts,
        clock: this.host.clock,
        signal,
      });
      this.host.records.push(record);
      records.push(record);
      await this.host.journal.record("check", { record }, { type: "checkRecorded", record });
      const badge = await this.host.badge();
      if (badge) this.host.journal.emit({ type: "verificationChanged", badge });
      if (signal.aborted) break;
    }
    return records;
  }
}
