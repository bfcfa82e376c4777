// The prompt box: submit when idle, steer while a turn runs, slash commands completed from the
// engine's command catalog (read again each time a "/" starts the box).
import { type KeyboardEvent, useEffect, useState } from "react";
import { api, type SlashCommand } from "./api.js";

interface Props {
  sessionId: string;
  running: boolean;
  onSubmit: (text: string) => void;
  onSteer: (text: string) => void;
  /** A catalog command: sent as the engine's `runCommand`. */
  onCommand: (name: string, args: string) => void;
}

export function Composer({ sessionId, running, onSubmit, onSteer, onCommand }: Props) {
  const [text, setText] = useState("");
  const [catalog, setCatalog] = useState<SlashCommand[]>([]);
  const [pick, setPick] = useState(0);
  const [closed, setClosed] = useState(false);
  const starting = text === "/";
  useEffect(() => {
    if (starting || catalog.length === 0) api.slash(sessionId).then(setCatalog, () => undefined);
  }, [sessionId, starting, catalog.length]);
  const slash = /^\/(\S*)$/.exec(text);
  const matches = slash && !closed ? catalog.filter((c) => c.name.startsWith(slash[1] ?? "")) : [];
  const send = () => {
    const value = text.trim();
    if (!value) return;
    setText("");
    const command = /^\/(\S+)\s*([\s\S]*)$/.exec(value);
    if (command && catalog.some((c) => c.name === command[1]))
      onCommand(command[1] ?? "", command[2] ?? "");
    else if (running) onSteer(value);
    else onSubmit(value);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (matches.length > 0 && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      setPick((p) => (p + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
    } else if (matches.length > 0 && e.key === "Tab") {
      e.preventDefault();
      setText(`/${matches[pick % matches.length]?.name ?? ""} `);
      setPick(0);
    } else if (matches.length > 0 && e.key === "Escape") {
      e.preventDefault();
      setClosed(true);
    } else if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      send();
    }
  };
  return (
    <div className="composer">
      {matches.length > 0 ? (
        <div className="completions" role="listbox" id="slash-list" aria-label="Slash commands">
          {matches.map((c, i) => (
            <div
              key={c.name}
              id={`slash-${c.name}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === pick % matches.length}
              onMouseDown={(e) => {
                e.preventDefault();
                setText(`/${c.name} `);
              }}
            >
              <strong>/{c.name}</strong>
              {c.argumentHint ? <span className="muted"> {c.argumentHint}</span> : null}{" "}
              <span className="muted">
                {c.description}
                {c.scope ? ` (${c.scope})` : ""}
              </span>
            </div>
          ))}
        </div>
      ) : null}
      <textarea
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setPick(0);
          setClosed(false);
        }}
        onKeyDown={onKey}
        rows={2}
        role="combobox"
        aria-expanded={matches.length > 0}
        aria-controls="slash-list"
        aria-activedescendant={
          matches.length > 0 ? `slash-${matches[pick % matches.length]?.name}` : undefined
        }
        aria-label={running ? "Steer the running turn" : "Message"}
        placeholder={
          running
            ? "Steer the running turn (Enter)"
            : "Ask anything, / for commands (Enter to send)"
        }
      />
      <button type="button" onClick={send}>
        {running ? "Steer" : "Send"}
      </button>
    </div>
  );
}
