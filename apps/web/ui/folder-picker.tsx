// The folder picker: the server lists folders (names only, never a file or its contents);
// the user walks them and starts a session in one.
import { useEffect, useRef, useState } from "react";
import { Icon } from "./icons.js";
import { api } from "./api.js";
import { useData } from "./use-data.js";

export function FolderPicker({
  start,
  choose,
  close,
}: {
  start: string;
  choose: (path: string) => void;
  close: () => void;
}) {
  const [path, setPath] = useState(start);
  const [typed, setTyped] = useState(start);
  const listing = useData(() => api.folders(path), [path]);
  const dialog = useRef<HTMLDivElement>(null);
  const closing = useRef(close);
  closing.current = close;
  useEffect(() => {
    dialog.current?.querySelector<HTMLInputElement>("input")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        closing.current();
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  const go = (next: string) => {
    setPath(next);
    setTyped(next);
  };
  const value = listing.value;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click outside the dialog closes it, as Esc does
    <div
      className="overlay"
      role="presentation"
      onMouseDown={(e) => e.target === e.currentTarget && close()}
    >
      <div
        className="dialog picker"
        role="dialog"
        aria-modal="true"
        aria-label="Choose a folder"
        ref={dialog}
        data-testid="folder-picker"
      >
        <h2>Choose a folder</h2>
        <form
          className="picker-path"
          onSubmit={(e) => {
            e.preventDefault();
            go(typed.trim() || start);
          }}
        >
          <input
            aria-label="Folder path"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <button type="submit">Go</button>
        </form>
        {listing.error ? <p role="alert">{listing.error}</p> : null}
        <ul className="picker-list" aria-label="Folders">
          {value?.parent ? (
            <li>
              <button
                type="button"
                className="link"
                onClick={() => value.parent && go(value.parent)}
              >
                <Icon name="up" /> .. (up to {value.parent})
              </button>
            </li>
          ) : null}
          {value?.folders.map((f) => (
            <li key={f.path}>
              <button type="button" className="link" onClick={() => go(f.path)}>
                <Icon name="folder" /> {f.name}
              </button>
            </li>
          ))}
          {value && value.folders.length === 0 ? (
            <li className="muted">No folders inside.</li>
          ) : null}
          {value && value.more > 0 ? <li className="muted">…and {value.more} more</li> : null}
        </ul>
        <div className="actions">
          <button
            type="button"
            className="primary"
            disabled={!value}
            onClick={() => value && choose(value.path)}
          >
            Start a session in {value?.path ?? path}
          </button>
          <button type="button" className="quiet" onClick={close}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
