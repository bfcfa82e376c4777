// The permission rules of a session's project, by list with their origin: add (to
// settings.local.toml or settings.toml), edit, remove; the rules of this chat.
import type { RuleView, SettingsReport } from "@z-engine/engine";
import { useState } from "react";
import { api } from "./api.js";

type List = "allow" | "ask" | "deny";
const LISTS: List[] = ["deny", "ask", "allow"];

function RuleRow({
  rule,
  edit,
}: {
  rule: RuleView;
  edit: (action: "remove" | "replace", rule: RuleView, text?: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(rule.rule);
  const file = rule.origin.file ?? rule.origin.level;
  return (
    <li data-testid="rule" data-list={rule.list}>
      {editing ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            edit("replace", rule, text);
            setEditing(false);
          }}
        >
          <input
            aria-label={`Edit ${rule.rule}`}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="small">
            Save
          </button>
          <button type="button" className="small quiet" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <>
          <code>{rule.rule}</code>{" "}
          <span className={`origin origin-${rule.origin.level}`}>{rule.origin.level}</span>
          {rule.applies ? null : <span className="withheld"> withheld until trusted</span>}
          <span className="muted file"> {file}</span>
          {rule.editable ? (
            <span className="rule-actions">
              <button type="button" className="small quiet" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button
                type="button"
                className="small quiet"
                aria-label={`Remove ${rule.rule}`}
                onClick={() => edit("remove", rule)}
              >
                Remove
              </button>
            </span>
          ) : null}
        </>
      )}
    </li>
  );
}

/** The rules section of the Settings page. */
export function Rules({
  sessionId,
  report,
  reload,
}: {
  sessionId: string;
  report: SettingsReport;
  reload: () => void;
}) {
  const [list, setList] = useState<List>("allow");
  const [text, setText] = useState("");
  const [file, setFile] = useState<"local" | "project">("local");
  const [problem, setProblem] = useState<string>();
  const fileOf = (r: RuleView): "local" | "project" =>
    r.origin.level === "local" ? "local" : "project";
  const done = (outcome: { ok: boolean; reason?: string }) => {
    setProblem(outcome.ok ? undefined : outcome.reason);
    reload();
  };
  const edit = (action: "remove" | "replace", rule: RuleView, newRule?: string) =>
    api
      .editRule(sessionId, {
        action,
        list: rule.list,
        rule: rule.rule,
        file: fileOf(rule),
        ...(newRule ? { newRule } : {}),
      })
      .then(done, (e: Error) => setProblem(e.message));
  return (
    <section aria-label="Permission rules" data-testid="rules">
      <h2>Permission rules</h2>
      <p className="muted">
        Deny wins over ask, ask over allow. Rules of the project's files can be changed here; the
        user's file is yours to edit.
      </p>
      {LISTS.map((l) => (
        <div key={l}>
          <h3>{l}</h3>
          <ul className="rule-list">
            {report.rules
              .filter((r) => r.list === l)
              .map((r) => (
                <RuleRow
                  key={`${r.rule}-${r.origin.file ?? ""}-${r.applies}`}
                  rule={r}
                  edit={edit}
                />
              ))}
          </ul>
        </div>
      ))}
      <form
        className="add-rule"
        onSubmit={(e) => {
          e.preventDefault();
          api.editRule(sessionId, { action: "add", list, rule: text, file }).then(
            (o) => {
              done(o);
              if (o.ok) setText("");
            },
            (err: Error) => setProblem(err.message),
          );
        }}
      >
        <select
          aria-label="Rule list"
          value={list}
          onChange={(e) => setList(e.target.value as List)}
        >
          <option value="allow">allow</option>
          <option value="ask">ask</option>
          <option value="deny">deny</option>
        </select>
        <input
          aria-label="New rule"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Bash(npm test:*)"
          required
        />
        <select
          aria-label="Save to"
          value={file}
          onChange={(e) => setFile(e.target.value as "local" | "project")}
        >
          <option value="local">this machine (settings.local.toml)</option>
          <option value="project">the project, shared (settings.toml)</option>
        </select>
        <button type="submit">Add rule</button>
      </form>
      {problem ? (
        <p role="alert" className="problem">
          {problem}
        </p>
      ) : null}
      {report.sessionRules.length > 0 ? (
        <>
          <h3>In this chat only</h3>
          <ul className="rule-list" data-testid="session-rules">
            {report.sessionRules.map((r) => (
              <li key={`${r.list}-${r.rule}`}>
                {r.list} <code>{r.rule}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
