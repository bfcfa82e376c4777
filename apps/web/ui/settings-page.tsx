// Settings and trust: the theme; for a session's project, the trust report and the trust
// action, the permission rules (add, remove, edit), the rules of this chat, and every
// effective setting with where its value comes from.
import type { RuleView, SettingsReport } from "@z-engine/engine";
import { useState } from "react";
import { api } from "./api.js";
import { applyTheme, savedTheme, type ThemeChoice } from "./theme.js";
import { useData } from "./use-data.js";

type List = "allow" | "ask" | "deny";
const LISTS: List[] = ["deny", "ask", "allow"];

function Appearance() {
  const [theme, setTheme] = useState<ThemeChoice>(savedTheme());
  return (
    <section aria-label="Appearance">
      <h2>Appearance</h2>
      <label>
        Theme{" "}
        <select
          value={theme}
          onChange={(e) => {
            const next = e.target.value as ThemeChoice;
            setTheme(next);
            applyTheme(next);
          }}
        >
          <option value="system">Follow the system</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
    </section>
  );
}

function Trust({ sessionId, reload }: { sessionId: string; reload: () => void }) {
  const report = useData(() => api.trust(sessionId), [sessionId]);
  const r = report.value;
  if (!r) return null;
  return (
    <section aria-label="Trust" data-testid="trust-section">
      <h2>Workspace trust</h2>
      {r.trusted ? (
        <p>
          <strong>{r.projectRoot}</strong> is trusted: its project settings apply.
        </p>
      ) : (
        <>
          <p>
            <strong>{r.projectRoot}</strong> is not trusted. Its settings may only make things
            stricter; trusting it would apply:
          </p>
          {r.wouldApply.length === 0 ? (
            <p className="muted">Nothing: it sets no withheld setting.</p>
          ) : null}
          <ul className="would-apply" data-testid="would-apply">
            {r.wouldApply.map((c) => (
              <li key={c.category}>
                <code>{c.category}</code>
                {c.files.map((f) => (
                  <div key={f.file} className="muted">
                    {f.file}: <code>{JSON.stringify(f.value)}</code>
                  </div>
                ))}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="primary"
            onClick={() =>
              api.trustFolder(sessionId).then(() => {
                report.reload();
                reload();
              })
            }
          >
            Trust this folder
          </button>
        </>
      )}
    </section>
  );
}

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

function Rules({
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

function Values({ report }: { report: SettingsReport }) {
  const [filter, setFilter] = useState("");
  const shown = report.values.filter((v) => v.key.includes(filter.trim()));
  return (
    <section aria-label="Effective settings" data-testid="effective-settings">
      <h2>Effective settings</h2>
      <input
        aria-label="Filter settings"
        placeholder="Filter: model, permissions, mcp…"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <table className="settings-table">
        <thead>
          <tr>
            <th>Setting</th>
            <th>Value</th>
            <th>From</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((v) => (
            <tr key={v.key} data-key={v.key}>
              <td>
                <code>{v.key}</code>
              </td>
              <td>
                <code>{JSON.stringify(v.value)}</code>
                {v.withheldFrom ? (
                  <div className="withheld">
                    the project's value is withheld until it is trusted
                  </div>
                ) : null}
              </td>
              <td>
                <span className={`origin origin-${v.origin.level}`}>{v.origin.level}</span>
                {v.origin.file && v.origin.file !== "env" ? (
                  <div className="muted file">{v.origin.file}</div>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function SettingsPage({ sessionId }: { sessionId: string | undefined }) {
  const report = useData(
    () => (sessionId ? api.settings(sessionId) : Promise.resolve(undefined)),
    [sessionId],
  );
  return (
    <main className="page settings" data-testid="settings">
      <h1>Settings</h1>
      <Appearance />
      {!sessionId ? (
        <p className="muted">Open a session to see its project's settings, rules and trust.</p>
      ) : null}
      {report.error ? <p role="alert">{report.error}</p> : null}
      {sessionId && report.value ? (
        <>
          <p className="muted">Project: {report.value.projectRoot}</p>
          <Trust sessionId={sessionId} reload={report.reload} />
          <Rules sessionId={sessionId} report={report.value} reload={report.reload} />
          {report.value.problems.length > 0 ? (
            <section aria-label="Problems">
              <h2>Problems in the settings files</h2>
              <ul>
                {report.value.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </section>
          ) : null}
          <Values report={report.value} />
        </>
      ) : null}
    </main>
  );
}
