// A modal dialog over the page: Esc or a click outside closes it; its first field gets the focus.
import { type ReactNode, useEffect, useRef } from "react";

export function Dialog(props: {
  label: string;
  className: string;
  testId: string;
  close: () => void;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const closing = useRef(props.close);
  closing.current = props.close;
  useEffect(() => {
    box.current?.querySelector<HTMLInputElement>("input")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      closing.current();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click outside the dialog closes it, as Esc does
    <div
      className="overlay"
      role="presentation"
      onMouseDown={(e) => e.target === e.currentTarget && props.close()}
    >
      <div
        className={`dialog ${props.className}`}
        role="dialog"
        aria-modal="true"
        aria-label={props.label}
        ref={box}
        data-testid={props.testId}
      >
        {props.children}
      </div>
    </div>
  );
}
