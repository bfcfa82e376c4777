// The command palette (Ctrl/Cmd+K): sessions, the app's commands, the session's panels and
// slash commands, modes and settings, filtered as you type; ↑/↓ and Enter, Esc closes.
import type { PermissionMode } from "@z-engine/protocol";
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { Dialog } from "./dialog.js";
import { api, type ProjectEntry, type SlashCommand } from "./api.js";
import { baseName, MODES } from "./format.js";

/** One palette entry: what it says, its group, and what choosing it does. */
export interface PaletteItem {
  readonly id: string;
  readonly label: string;
  readonly group: "Sessions" | "Commands" | "Session" | "Slash commands" | "Settings";
  readonly hint?: string;
  readonly run: () => void;
}

/** What the palette can act on. */
export interface PaletteActions {
  readonly projects: ProjectEntry[] | undefined;
  readonly session: string | undefined;
  readonly openSession: (id: string) => void;
  readonly go: (page: "home" | "inbox" | "settings") => void;
  readonly openPanel: (tab: "overview" | "changes" | "agents" | "context") => void;
  readonly theme: (choice: "system" | "light" | "dark") => void;
  /** Sends a command to the open session. */
  readonly setMode: (mode: PermissionMode) => void;
  readonly interrupt: () => void;
}

/** Puts text in the open session's composer (a slash command waiting for its arguments). */
export function compose(text: string): void {
  dispatchEvent(new CustomEvent("zeng:compose", { detail: text }));
}

function itemsOf(a: PaletteActions, slash: SlashCommand[]): PaletteItem[] {
  const items: PaletteItem[] = [
    { id: "new", label: "New session", group: "Commands", run: () => a.go("home") },
    { id: "inbox", label: "Open the Inbox", group: "Commands", run: () => a.go("inbox") },
    {
      id: "settings",
      label: "Settings and permission rules",
      group: "Settings",
      run: () => a.go("settings"),
    },
    {
      id: "theme-system",
      label: "Theme: follow the system",
      group: "Settings",
      run: () => a.theme("system"),
    },
    { id: "theme-light", label: "Theme: light", group: "Settings", run: () => a.theme("light") },
    { id: "theme-dark", label: "Theme: dark", group: "Settings", run: () => a.theme("dark") },
  ];
  if (a.session) {
    for (const [tab, label] of [
      ["changes", "Review changes"],
      ["agents", "Agents and jobs"],
      ["context", "Context"],
      ["overview", "Overview: badge, checkpoints, cost"],
    ] as const)
      items.push({ id: `panel-${tab}`, label, group: "Session", run: () => a.openPanel(tab) });
    for (const mode of MODES)
      items.push({
        id: `mode-${mode}`,
        label: `Mode: ${mode}`,
        group: "Session",
        run: () => a.setMode(mode),
      });
    items.push({
      id: "interrupt",
      label: "Interrupt the running turn",
      group: "Session",
      hint: "Esc",
      run: a.interrupt,
    });
    for (const c of slash)
      items.push({
        id: `slash-${c.name}`,
        label: `/${c.name}`,
        group: "Slash commands",
        hint: c.description,
        run: () => compose(`/${c.name} `),
      });
  }
  for (const p of a.projects ?? [])
    for (const s of p.sessions)
      items.push({
        id: `session-${s.id}`,
        label: s.title ?? "Untitled",
        group: "Sessions",
        hint: baseName(p.root),
        run: () => a.openSession(s.id),
      });
  return items;
}

function matches(item: PaletteItem, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${item.label} ${item.hint ?? ""} ${item.group}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

export function Palette({ actions, close }: { actions: PaletteActions; close: () => void }) {
  const [query, setQuery] = useState("");
  const [pick, setPick] = useState(0);
  const [slash, setSlash] = useState<SlashCommand[]>([]);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    if (actions.session) api.slash(actions.session).then(setSlash, () => undefined);
  }, [actions.session]);
  const shown = useMemo(
    () =>
      itemsOf(actions, slash)
        .filter((i) => matches(i, query))
        .slice(0, 60),
    [actions, slash, query],
  );
  const choose = (item: PaletteItem | undefined) => {
    if (!item) return;
    close();
    item.run();
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : shown.length - 1;
      setPick((p) => (shown.length === 0 ? 0 : (p + step) % shown.length));
    } else if (e.key === "Enter") {
      e.preventDefault();
      choose(shown[pick]);
    } else if (e.key === "Escape") {
      e.preventDefault();
      close();
    }
  };
  return (
    <Dialog label="Command palette" className="palette" testId="palette" close={close}>
      <input
        ref={input}
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-activedescendant={shown[pick] ? `pal-${shown[pick].id}` : undefined}
        aria-label="Search sessions, commands and settings"
        placeholder="Search sessions, commands and settings…"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setPick(0);
        }}
        onKeyDown={onKey}
      />
      <div id="palette-list" role="listbox" aria-label="Results" className="palette-list">
        {shown.length === 0 ? <div className="muted empty">Nothing matches.</div> : null}
        {shown.map((item, i) => (
          <div
            key={item.id}
            id={`pal-${item.id}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === pick}
            onMouseEnter={() => setPick(i)}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(item);
            }}
          >
            <span className="pal-group">{item.group}</span> {item.label}
            {item.hint ? <span className="muted"> {item.hint}</span> : null}
          </div>
        ))}
      </div>
    </Dialog>
  );
}
