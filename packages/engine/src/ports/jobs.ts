import { jobFinishedReminder, type ReminderQueue } from "@z-engine/context";
import type { BackgroundProcess, CommandRequest, Shell } from "@z-engine/host";
import { type JobId, type JobInfo, newJobId } from "@z-engine/protocol";
import type { JobPort } from "@z-engine/tools";
import type { Journal } from "../journal/journal.js";

interface Job {
  info: JobInfo;
  readonly process: Pick<BackgroundProcess, "readNewOutput" | "kill">;
  readonly command: string;
  /** Output taken from the process that the model's JobOutput has not had yet. */
  unread?: string;
  /** The output so far (its last MAX_KEPT characters), for a host's jobs panel. */
  seen?: string;
}

/** What a job keeps of its output for the host and for the model, at most (its tail). */
const MAX_KEPT = 1_000_000;

/** A background agent as the job list sees it. */
export interface AgentJobHandle {
  /** The agent's output since the previous call (its report, once it finished). */
  readNewOutput(): string;
  /** Stops the agent; resolves once it has stopped. */
  kill(): Promise<void>;
  /** Resolves when the agent ends, however it ends. Never rejects. */
  readonly done: Promise<{ readonly status: "completed" | "failed" | "killed" }>;
}

/**
 * Background shells (Bash with run_in_background) and background agents (Agent with
 * run_in_background) of the session: each is a job whose changes are emitted as
 * jobUpdated; when one ends, a reminder for the model is queued.
 * Jobs hang under the session, not the turn: cancel and interrupt leave them running;
 * `killAll` (session close) stops them.
 */
export class SessionJobs implements JobPort {
  private readonly jobs = new Map<string, Job>();

  constructor(
    private readonly shell: Shell,
    private readonly journal: Journal,
    private readonly reminders: ReminderQueue,
    private readonly clock: () => number,
  ) {}

  /** Starts a background shell; on `shell` when given (a worktree agent's), else the session's. */
  async spawnShell(
    request: Omit<CommandRequest, "signal" | "onOutput">,
    description: string,
    shell: Shell = this.shell,
  ): Promise<JobInfo> {
    const process = shell.spawnBackground(request);
    const info: JobInfo = {
      id: newJobId(),
      kind: "shell",
      description,
      status: "running",
      exitCode: null,
      startedAt: this.clock(),
    };
    const job: Job = { info, process, command: request.command };
    this.jobs.set(info.id, job);
    this.journal.emit({ type: "jobUpdated", job: info });
    void process.done.then((result) => {
      if (job.info.status === "running") {
        this.update(job, {
          status: result.exitCode === 0 ? "completed" : "failed",
          exitCode: result.exitCode,
        });
      }
      this.reminders.add(
        jobFinishedReminder({ id: info.id, command: job.command, exitCode: result.exitCode }),
      );
    });
    return info;
  }

  /**
   * Lists a background agent as a job (kind `agent`); when it ends the job is updated and a
   * reminder tells the model to read its report with JobOutput.
   */
  startAgent(description: string, handle: AgentJobHandle): JobInfo {
    const info: JobInfo = {
      id: newJobId(),
      kind: "agent",
      description,
      status: "running",
      exitCode: null,
      startedAt: this.clock(),
    };
    const job: Job = { info, process: handle, command: description };
    this.jobs.set(info.id, job);
    this.journal.emit({ type: "jobUpdated", job: info });
    void handle.done.then(({ status }) => {
      if (job.info.status === "running") this.update(job, { status, exitCode: null });
      this.reminders.add({
        key: `job:${info.id}`,
        text: `Background agent job ${info.id} (${description}) ${job.info.status}. Read its report with JobOutput.`,
      });
    });
    return info;
  }

  async readOutput(id: JobId): Promise<{ job: JobInfo; output: string } | null> {
    const job = this.jobs.get(id);
    if (!job) return null;
    this.pull(job);
    const output = job.unread ?? "";
    job.unread = "";
    return { job: job.info, output };
  }

  /** The job's output so far (its last 1 MB) without taking it from the model's JobOutput. */
  peekOutput(id: JobId): { job: JobInfo; output: string } | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    this.pull(job);
    return { job: job.info, output: job.seen ?? "" };
  }

  private pull(job: Job): void {
    const text = job.process.readNewOutput();
    if (!text) return;
    job.unread = ((job.unread ?? "") + text).slice(-MAX_KEPT);
    job.seen = ((job.seen ?? "") + text).slice(-MAX_KEPT);
  }

  async kill(id: JobId): Promise<JobInfo | null> {
    const job = this.jobs.get(id);
    if (!job) return null;
    if (job.info.status === "running") {
      this.update(job, { status: "killed", exitCode: null });
      await job.process.kill();
    }
    return job.info;
  }

  list(): readonly JobInfo[] {
    return [...this.jobs.values()].map((j) => j.info);
  }

  /** Kills every running job (session close). */
  async killAll(): Promise<void> {
    await Promise.all(
      [...this.jobs.values()]
        .filter((j) => j.info.status === "running")
        .map((j) => this.kill(j.info.id)),
    );
  }

  private update(job: Job, change: Pick<JobInfo, "status" | "exitCode">): void {
    job.info = { ...job.info, ...change, endedAt: this.clock() };
    this.journal.emit({ type: "jobUpdated", job: job.info });
  }
}
