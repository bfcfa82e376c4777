// The app: the sidebar of projects and sessions, and the page beside it (the start screen, a
// session, the Inbox, Settings), the command palette, the theme. The page is in the URL
// (`session`, `view`), so a reload comes back to it.
import { useCallback, useEffect, useMemo, useState } from "react";
import { IconButton } from "./icons.js";
import { createRoot } from "react-dom/client";
import { api, followHub, type InboxItem, type ProjectEntry, type ServerInfo } from "./api.js";
import { Home } from "./home.js";
import { InboxPage } from "./inbox-page.js";
import { Palette, type PaletteActions } from "./palette.js";
import { SessionView } from "./session-view.js";
import { SettingsPage } from "./settings-page.js";
import type { PanelTab } from "./side-panel.js";
import { type Page, Sidebar } from "./sidebar.js";
import { applyTheme, savedTheme } from "./theme.js";

interface Place {
  page: Page;
  session?: string | undefined;
}

function placeInUrl(): Place {
  const params = new URLSearchParams(location.search);
  const session = params.get("session") ?? undefined;
  const view = params.get("view");
  if (view === "inbox") return { page: "inbox", session };
  if (view === "settings") return { page: "settings", session };
  return session ? { page: "session", session } : { page: "home" };
}

function pushPlace(place: Place): void {
  const params = new URLSearchParams(location.search);
  if (place.session) params.set("session", place.session);
  else params.delete("session");
  if (place.page === "inbox" || place.page === "settings") params.set("view", place.page);
  else params.delete("view");
  history.pushState(null, "", `/?${params.toString()}`);
}

applyTheme(savedTheme());
// The start screen's lists are asked for before React first renders (start-up).
const firstProjects = api.projects();
const firstInfo = api.info();

function useAppData() {
  const [projects, setProjects] = useState<ProjectEntry[]>();
  const [info, setInfo] = useState<ServerInfo>();
  const [inbox, setInbox] = useState<InboxItem[]>();
  const loadProjects = useCallback(() => api.projects().then(setProjects, () => undefined), []);
  const loadInbox = useCallback(() => api.inbox().then(setInbox, () => undefined), []);
  useEffect(() => {
    firstProjects.then(setProjects, () => setProjects([]));
    firstInfo.then(setInfo, () => undefined);
    return followHub((type) => (type === "inbox" ? loadInbox() : loadProjects()));
  }, [loadInbox, loadProjects]);
  return { projects, info, inbox, loadProjects, loadInbox };
}

function App() {
  const [place, setPlace] = useState<Place>(placeInUrl());
  const [menu, setMenu] = useState(false);
  const [palette, setPalette] = useState(false);
  const [tab, setTab] = useState<{ tab: PanelTab; n: number }>();
  const data = useAppData();
  useEffect(() => {
    const onPop = () => setPlace(placeInUrl());
    addEventListener("popstate", onPop);
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
        setPalette((open) => !open);
      }
    };
    addEventListener("keydown", onKey);
    return () => {
      removeEventListener("popstate", onPop);
      removeEventListener("keydown", onKey);
    };
  }, []);
  const go = useCallback((page: Page, session?: string) => {
    const next = { page, session };
    pushPlace(next);
    setPlace(next);
    setMenu(false);
  }, []);
  const current = place.session;
  const actions: PaletteActions = useMemo(
    () => ({
      projects: data.projects,
      session: place.page === "session" ? current : undefined,
      openSession: (id) => go("session", id),
      go: (page) => go(page, page === "settings" ? current : undefined),
      openPanel: (t) => setTab((old) => ({ tab: t, n: (old?.n ?? 0) + 1 })),
      theme: applyTheme,
      setMode: (mode) => current && void api.send(current, { type: "setMode", mode }),
      interrupt: () => current && void api.send(current, { type: "interrupt" }),
    }),
    [data.projects, place.page, current, go],
  );
  const newIn = (folder: string) =>
    api.create(folder).then(
      (r) => go("session", r.id),
      () => go("home"),
    );
  return (
    <div className="app">
      <Sidebar
        projects={data.projects}
        inboxCount={data.inbox?.length ?? 0}
        current={place}
        go={go}
        newIn={(folder) => void newIn(folder)}
        open={menu}
        close={() => setMenu(false)}
      />
      <div className="page-area">
        {data.info?.warning ? (
          <div className="banner warning" role="alert" data-testid="server-warning">
            <strong>Turns will fail:</strong> {data.info.warning}
          </div>
        ) : null}
        {place.page === "session" && current ? (
          <SessionView key={current} id={current} openMenu={() => setMenu(true)} tab={tab} />
        ) : null}
        {place.page === "home" ? (
          <>
            <IconButton
              icon="menu"
              label="Sessions"
              className="menu-button floating"
              onClick={() => setMenu(true)}
            />
            <Home info={data.info} projects={data.projects} open={(id) => go("session", id)} />
          </>
        ) : null}
        {place.page === "inbox" ? (
          <InboxPage
            items={data.inbox}
            projects={data.projects}
            openSession={(id) => go("session", id)}
            changed={() => void data.loadInbox()}
          />
        ) : null}
        {place.page === "settings" ? <SettingsPage sessionId={place.session} /> : null}
      </div>
      {palette ? <Palette actions={actions} close={() => setPalette(false)} /> : null}
    </div>
  );
}

const root = document.getElementById("root");
if (root) createRoot(root).render(<App />);
