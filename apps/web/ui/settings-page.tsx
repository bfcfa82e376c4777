// Settings and trust: the theme; for a session's project, the trust report and the trust
// action, the permission rules (add, remove, edit), the rules of this chat, and every
// effective setting with where its value comes from.
import type { SettingsReport } from "@z-engine/engine";
import { useState } from "react";
import { api } from "./api.js";
import { Rules } from "./rules-section.js";
import { applyTheme, savedTheme, type ThemeChoice } from "./theme.js";
import { useData } from "./use-data.js";

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
