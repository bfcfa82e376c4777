import type { Key } from "ink";
import {
  activeCard,
  approvalChoices,
  choiceCount,
  PLAN_CHOICES,
  questionChoices,
  REWIND_CHOICES,
  TRUST_CHOICES,
} from "./cards.js";
import * as ed from "./editor.js";
import { editKey, type KeyContext, type Ui } from "./ui.js";
import { dismissTrust, type View } from "./view.js";

function choose(ui: Ui, view: View, index: number, ctx: KeyContext): Ui {
  const card = activeCard(view);
  const reset = { ...ui, choice: 0, field: ed.EMPTY };
  if (card === "trust") {
    ctx.send({ type: "trustWorkspace", trusted: TRUST_CHOICES[index]?.value === true });
    ctx.local(dismissTrust);
    return reset;
  }
  if (card === "approval") {
    const approval = view.approvals[ui.card % view.approvals.length];
    const choice = approval ? approvalChoices(approval, view.trusted)[index] : undefined;
    if (!approval || !choice) return ui;
    // Saving a rule for an untrusted folder: the card said it trusts the folder first.
    if (choice.value.type === "allowProject" && !view.trusted)
      ctx.send({ type: "trustWorkspace", trusted: true });
    const feedback = ui.field.text.trim();
    const decision =
      choice.value.type === "deny" && feedback ? { type: "deny" as const, feedback } : choice.value;
    ctx.send({ type: "resolveApproval", approvalId: approval.approvalId, decision });
    return { ...reset, card: 0 };
  }
  if (card === "plan") {
    const plan = view.plans[0];
    const mode = PLAN_CHOICES[index]?.value;
    if (!plan || mode === undefined) return ui;
    const feedback = ui.field.text.trim();
    ctx.send({
      type: "resolvePlan",
      planId: plan.id,
      approved: mode !== null,
      ...(mode ? { mode } : {}),
      ...(feedback ? { feedback } : {}),
    });
    return reset;
  }
  if (card === "question") return answer(ui, view, index, ctx);
  return ui;
}

function answer(ui: Ui, view: View, index: number, ctx: KeyContext): Ui {
  const question = view.questions[0];
  const q = question?.questions[ui.step];
  if (!question || !q) return ui;
  const typed = ui.field.text.trim();
  const label = questionChoices(question, ui.step)[index]?.value;
  let value = typed || label;
  if (q.multiSelect && !typed) {
    if (index >= 0 && label !== undefined) {
      const picked = ui.picked.includes(label)
        ? ui.picked.filter((p) => p !== label)
        : [...ui.picked, label];
      return { ...ui, picked };
    }
    value = ui.picked.join(", ");
  }
  if (!value) return ui;
  const answers = { ...ui.answers, [q.question]: value };
  const next = { ...ui, answers, picked: [], field: ed.EMPTY, choice: 0 };
  if (ui.step + 1 < question.questions.length) return { ...next, step: ui.step + 1 };
  ctx.send({ type: "answerQuestion", questionId: question.id, answers });
  return { ...next, step: 0, answers: {} };
}

/** A key while a card (trust, approval, question, plan) is open. */
export function cardKey(ui: Ui, view: View, input: string, key: Key, ctx: KeyContext): Ui {
  const count = choiceCount(view, activeCard(view), ui.card, ui.step);
  if (key.tab && view.approvals.length > 1 && activeCard(view) === "approval")
    return { ...ui, card: (ui.card + 1) % view.approvals.length, choice: 0 };
  if (key.upArrow || key.downArrow) {
    const d = key.upArrow ? -1 : 1;
    return { ...ui, choice: (ui.choice + d + count) % Math.max(1, count) };
  }
  const digit = /^[1-9]$/.test(input) && ui.field.text === "" ? Number(input) - 1 : -1;
  if (digit >= 0 && digit < count) return choose(ui, view, digit, ctx);
  if (key.return) {
    const typed = ui.field.text.trim() !== "";
    if (activeCard(view) !== "question")
      // Enter with typed text: the feedback with a deny / keep planning.
      return choose(ui, view, typed ? count - 1 : ui.choice, ctx);
    // A question: the typed answer, else the ticked options (multi-select; the highlighted
    // one when none is ticked), else the highlighted option.
    if (typed || ui.picked.length > 0) return choose(ui, view, -1, ctx);
    const multi = view.questions[0]?.questions[ui.step]?.multiSelect === true;
    const picked = choose(ui, view, ui.choice, ctx);
    return multi ? choose(picked, view, -1, ctx) : picked;
  }
  const field = editKey(ui.field, input, key);
  return field ? { ...ui, field } : ui;
}

/** A key in the rewind picker. */
export function rewindKey(ui: Ui, view: View, input: string, key: Key, ctx: KeyContext): Ui {
  const r = ui.rewind as NonNullable<Ui["rewind"]>;
  if (key.escape) return { ...ui, rewind: undefined, hint: undefined };
  const count = r.target ? REWIND_CHOICES.length : view.targets.length;
  if (key.upArrow || key.downArrow) {
    const at = (r.at + (key.upArrow ? -1 : 1) + count) % Math.max(1, count);
    return { ...ui, rewind: { ...r, at } };
  }
  const digit = /^[1-9]$/.test(input) ? Number(input) - 1 : -1;
  if (!key.return && !(r.target && digit >= 0 && digit < count)) return ui;
  if (!r.target) {
    const target = view.targets[r.at];
    return target ? { ...ui, rewind: { at: 0, target } } : { ...ui, rewind: undefined };
  }
  const restore = REWIND_CHOICES[digit >= 0 ? digit : r.at]?.value ?? "both";
  ctx.send({ type: "rewind", messageId: r.target.messageId as never, restore });
  // The conversation going back puts its prompt back in the input, to edit and send again.
  const editor = restore === "code" ? ui.editor : ed.editorOf(r.target.text);
  return { ...ui, rewind: undefined, editor, hint: undefined };
}
