// The folder picker: the server lists folders (names only, never a file or its contents);
// the user walks them and starts a session in one.
import { useState } from "react";
import { Icon } from "./icons.js";
import { Dialog } from "./dialog.js";
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
  const go = (next: string) => {
    setPath(next);
    setTyped(next);
  };
  const value = listing.value;
  return (
    <Dialog label="Choose a folder" className="picker" testId="folder-picker" close={close}>
      <h2>Choose a folder</h2>
      <form
        className="picker-path"
        onSubmit={(e) => {
          e.preventDefault();
          go(typed.trim() || start);
        }}
      >
        <input aria-label="Folder path" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <button type="submit">Go</button>
      </form>
      {listing.error ? <p role="alert">{listing.error}</p> : null}
      <ul className="picker-list" aria-label="Folders">
        {value?.parent ? (
          <li>
            <button type="button" className="link" onClick={() => value.parent && go(value.parent)}>
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
        {value && value.folders.length === 0 ? <li className="muted">No folders inside.</li> : null}
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
    </Dialog>
  );
}
