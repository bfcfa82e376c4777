import { describe, expect, it } from "vitest";
import { result, text, user } from "./fixtures.test.helper.js";
import {
  appendReminders,
  filesChangedReminder,
  jobFinishedReminder,
  ReminderQueue,
  reminderBlock,
  todoNudgeReminder,
} from "./reminders.js";

describe("ReminderQueue", () => {
  it("appends queued reminders to the user message, in order, each once", () => {
    const queue = new ReminderQueue();
    expect(
      queue.add(jobFinishedReminder({ id: "job_1", command: "npm run dev", exitCode: 0 })),
    ).toBe(true);
    expect(queue.add(filesChangedReminder("changed:1", ["/p/a.ts"]))).toBe(true);
    expect(
      queue.add(jobFinishedReminder({ id: "job_1", command: "npm run dev", exitCode: 0 })),
    ).toBe(false);
    expect(queue.size).toBe(2);
    const message = user(result("c1"), text("steer"));
    const recorded = queue.appendTo(message);
    expect(recorded.id).toBe(message.id);
    expect(recorded.content.slice(0, 2)).toEqual(message.content);
    expect(recorded.content[2]).toEqual(
      reminderBlock(
        "Background job job_1 (`npm run dev`) exited with code 0. Read its output with JobOutput.",
      ),
    );
    expect(recorded.content[3]?.type === "text" && recorded.content[3].text).toMatch(
      /^<system-reminder>\nThese files were changed outside the agent[\s\S]*- \/p\/a.ts\n<\/system-reminder>$/,
    );
    expect(queue.size).toBe(0);
    expect(queue.add(jobFinishedReminder({ id: "job_1", command: "x", exitCode: 1 }))).toBe(false);
    expect(queue.wasDelivered("job:job_1")).toBe(true);
    const next = user(text("again"));
    expect(queue.appendTo(next)).toBe(next);
  });

  it("forgets queued and delivered reminders on reset", () => {
    const queue = new ReminderQueue(["job:job_9"]);
    queue.add(todoNudgeReminder("todo:1"));
    queue.reset();
    expect(queue.size).toBe(0);
    expect(queue.wasDelivered("job:job_9")).toBe(false);
    expect(queue.add(jobFinishedReminder({ id: "job_9", command: "x", exitCode: 0 }))).toBe(true);
  });

  it("remembers reminders delivered before a resume", () => {
    const queue = new ReminderQueue(["todo:turn_1"]);
    expect(queue.add(todoNudgeReminder("todo:turn_1"))).toBe(false);
    expect(queue.add(todoNudgeReminder("todo:turn_2"))).toBe(true);
    expect(appendReminders(user(text("a")), []).content).toHaveLength(1);
    expect(jobFinishedReminder({ id: "j", command: "c", exitCode: null }).text).toContain(
      "was stopped",
    );
  });
});
