import { Box, Text } from "ink";
import {
  activeCard,
  approvalChoices,
  type Choice,
  PLAN_CHOICES,
  questionChoices,
  REWIND_CHOICES,
  TRUST_CHOICES,
} from "./cards.js";
import { Markdown } from "./items.js";
import { Display } from "./tool-row.js";
import type { Ui } from "./keys.js";
import { useColor } from "./theme.js";
import { short, type View } from "./view.js";

function Choices<T>({
  choices,
  selected,
  picked,
}: {
  choices: Choice<T>[];
  selected: number;
  picked?: readonly string[];
}) {
  const c = useColor();
  return (
    <Box flexDirection="column">
      {choices.map((choice, i) => (
        <Text
          key={choice.label}
          color={i === selected ? c("accent") : undefined}
          bold={i === selected}
        >
          {i === selected ? "❯ " : "  "}
          {picked?.includes(String(choice.value)) ? "[x] " : ""}
          {i + 1}. {choice.label}
        </Text>
      ))}
    </Box>
  );
}

function Field({ ui, placeholder }: { ui: Ui; placeholder: string }) {
  return ui.field.text ? <Text>✎ {ui.field.text}</Text> : <Text dimColor>{placeholder}</Text>;
}

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  const c = useColor();
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={c("warn")} paddingX={1}>
      <Text bold color={c("warn")}>
        {title}
      </Text>
      {children}
    </Box>
  );
}

function ApprovalCard({ view, ui, rows }: { view: View; ui: Ui; rows: number }) {
  const index = ui.card % view.approvals.length;
  const approval = view.approvals[index];
  if (!approval) return null;
  const more =
    view.approvals.length > 1
      ? ` (${index + 1} of ${view.approvals.length}, Tab for the next)`
      : "";
  return (
    <Card title={`Allow ${approval.title}?${more}`}>
      {approval.agentId ? <Text dimColor>asked by agent {approval.agentId}</Text> : null}
      <Text dimColor>{approval.reason}</Text>
      {approval.preview ? (
        <Display display={approval.preview} keep={Math.max(3, rows - 12)} />
      ) : null}
      <Choices choices={approvalChoices(approval, view.trusted)} selected={ui.choice} />
      <Field ui={ui} placeholder="type to give the model feedback with a deny" />
    </Card>
  );
}

function QuestionCard({ view, ui }: { view: View; ui: Ui }) {
  const question = view.questions[0];
  const q = question?.questions[ui.step];
  if (!question || !q) return null;
  return (
    <Card title={q.header ? `${q.header}: ${q.question}` : q.question}>
      <Choices
        choices={questionChoices(question, ui.step)}
        selected={ui.choice}
        picked={ui.picked}
      />
      <Text dimColor>
        {q.multiSelect ? "digits toggle, Enter confirms; " : ""}or type your own answer
      </Text>
      <Field ui={ui} placeholder="" />
    </Card>
  );
}

function PlanCard({ view, ui }: { view: View; ui: Ui }) {
  const plan = view.plans[0];
  if (!plan) return null;
  return (
    <Card title="Plan for review">
      <Markdown text={plan.plan} />
      <Choices choices={PLAN_CHOICES} selected={ui.choice} />
      <Field ui={ui} placeholder="type feedback to keep planning" />
    </Card>
  );
}

function TrustCard({ view, ui }: { view: View; ui: Ui }) {
  if (!view.trust) return null;
  return (
    <Card title={`Do you trust ${view.trust.projectRoot}?`}>
      <Text>Its project settings set things that only apply in a trusted folder:</Text>
      <Text>{view.trust.withheld.join(", ")}</Text>
      <Choices choices={TRUST_CHOICES} selected={ui.choice} />
      <Text dimColor>↑/↓ and Enter answer; what you type stays in the input below</Text>
    </Card>
  );
}

function PickerCard({ ui }: { ui: Ui }) {
  const p = ui.picker;
  if (!p) return null;
  return (
    <Card title={`${p.title} (↑/↓, Enter; Esc to close)`}>
      <Choices choices={[...p.choices]} selected={p.at} />
    </Card>
  );
}

function RewindCard({ view, ui }: { view: View; ui: Ui }) {
  const r = ui.rewind;
  if (!r) return null;
  if (r.target)
    return (
      <Card title={`Rewind to before "${short(r.target.text)}": restore what?`}>
        <Choices choices={REWIND_CHOICES} selected={r.at} />
        <Text dimColor>Esc to cancel</Text>
      </Card>
    );
  const choices = view.targets.map((t) => ({ label: short(t.text), value: t.messageId }));
  return (
    <Card title="Rewind: pick the message to go back to (↑/↓, Enter)">
      <Choices choices={choices} selected={r.at} />
      <Text dimColor>Esc to cancel</Text>
    </Card>
  );
}

/** The card that has the keys now, if any, in at most about `rows` rows. */
export function Panel({ view, ui, rows }: { view: View; ui: Ui; rows: number }) {
  if (ui.picker) return <PickerCard ui={ui} />;
  if (ui.rewind) return <RewindCard view={view} ui={ui} />;
  switch (activeCard(view)) {
    case "trust":
      return <TrustCard view={view} ui={ui} />;
    case "approval":
      return <ApprovalCard view={view} ui={ui} rows={rows} />;
    case "question":
      return <QuestionCard view={view} ui={ui} />;
    case "plan":
      return <PlanCard view={view} ui={ui} />;
    default:
      return null;
  }
}
