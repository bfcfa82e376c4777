// The prompt box: submit when idle, steer while a turn runs, slash commands completed from the
// engine's command catalog (read again each time a "/" starts the box), images attached by
// paste, drop or the picker, and the prompt a rewind gave back.
import type { ImageBlock } from "@z-engine/protocol";
import { Icon } from "./icons.js";
import {
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  useEffect,
  useRef,
  useState,
} from "react";
import { api, type SlashCommand } from "./api.js";
import { type Attachment, MAX_IMAGES, readImages } from "./attachments.js";

interface Props {
  sessionId: string;
  running: boolean;
  onSubmit: (text: string, images: ImageBlock[], urls: string[]) => void;
  onSteer: (text: string) => void;
  /** A catalog command: sent as the engine's `runCommand`. */
  onCommand: (name: string, args: string) => void;
  /** A prompt to put back in the box (after a rewind), once per `key`. */
  restore?: { key: number; text: string } | undefined;
}

function useCatalog(sessionId: string, text: string): SlashCommand[] {
  const [catalog, setCatalog] = useState<SlashCommand[]>([]);
  const starting = text === "/";
  useEffect(() => {
    if (starting || catalog.length === 0) api.slash(sessionId).then(setCatalog, () => undefined);
  }, [sessionId, starting, catalog.length]);
  return catalog;
}

export function Composer({ sessionId, running, onSubmit, onSteer, onCommand, restore }: Props) {
  const [text, setText] = useState("");
  const [pick, setPick] = useState(0);
  const [closed, setClosed] = useState(false);
  const [images, setImages] = useState<Attachment[]>([]);
  const [problem, setProblem] = useState<string>();
  const [dragging, setDragging] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const catalog = useCatalog(sessionId, text);
  const restoreKey = restore?.key;
  const restoreText = restore?.text;
  useEffect(() => {
    if (restoreKey === undefined || restoreText === undefined) return;
    setText(restoreText);
    box.current?.focus();
  }, [restoreKey, restoreText]);
  // The palette hands a slash command over to be completed here.
  useEffect(() => {
    const onCompose = (e: Event) => {
      setText(String((e as CustomEvent<string>).detail));
      box.current?.focus();
    };
    addEventListener("zeng:compose", onCompose);
    return () => removeEventListener("zeng:compose", onCompose);
  }, []);
  const slash = /^\/(\S*)$/.exec(text);
  const matches = slash && !closed ? catalog.filter((c) => c.name.startsWith(slash[1] ?? "")) : [];
  const attach = async (files: Iterable<File>) => {
    const read = await readImages(files);
    const room = MAX_IMAGES - images.length;
    const extra = read.attachments.length > room ? [`at most ${MAX_IMAGES} images a prompt`] : [];
    setImages((now) => [...now, ...read.attachments.slice(0, room)]);
    const problems = [...read.problems, ...extra];
    setProblem(problems.length > 0 ? problems.join("; ") : undefined);
  };
  const send = () => {
    const value = text.trim();
    if (!value && images.length === 0) return;
    const command = /^\/(\S+)\s*([\s\S]*)$/.exec(value);
    if (command && images.length === 0 && catalog.some((c) => c.name === command[1]))
      onCommand(command[1] ?? "", command[2] ?? "");
    else if (running) {
      if (images.length > 0) {
        setProblem("images go with a new prompt: send them once the turn ends");
        return;
      }
      onSteer(value);
    } else
      onSubmit(
        value,
        images.map((i) => i.block),
        images.map((i) => i.url),
      );
    setText("");
    setImages([]);
    setProblem(undefined);
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
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files];
    if (files.length === 0) return;
    e.preventDefault();
    void attach(files);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    void attach([...e.dataTransfer.files]);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for images; the picker button does the same by keyboard
    <div
      className={`composer${dragging ? " dragging" : ""}`}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="composer"
    >
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
      {images.length > 0 ? (
        <ul className="attachments" aria-label="Attached images">
          {images.map((img, i) => (
            <li key={img.url.slice(-32) + String(i)}>
              <img src={img.url} alt={img.name} />
              <button
                type="button"
                className="small quiet"
                aria-label={`Remove ${img.name}`}
                onClick={() => setImages((now) => now.filter((x) => x !== img))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {problem ? (
        <p className="composer-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="composer-row">
        <button
          type="button"
          className="icon"
          aria-label="Attach images"
          title="Attach images (or paste or drop them)"
          onClick={() => picker.current?.click()}
        >
          <Icon name="attach" />
        </button>
        <input
          ref={picker}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          multiple
          hidden
          data-testid="image-picker"
          onChange={(e) => {
            if (e.target.files) void attach([...e.target.files]);
            e.target.value = "";
          }}
        />
        <textarea
          ref={box}
          className="composer-input"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setPick(0);
            setClosed(false);
          }}
          onKeyDown={onKey}
          onPaste={onPaste}
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
              : "Ask anything, / for commands, paste or drop images"
          }
        />
        <button type="button" className="primary" onClick={send}>
          {running ? "Steer" : "Send"}
        </button>
      </div>
    </div>
  );
}
