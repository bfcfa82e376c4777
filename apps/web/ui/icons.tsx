// Small line icons as inline SVG (the page loads no font or image from elsewhere, and emoji
// and symbol glyphs are missing from many systems' fonts).
const PATHS = {
  plus: "M12 5v14M5 12h14",
  folder: "M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z",
  branch: "M6 3v12M18 9a3 3 0 1 0 0-.01M6 21a3 3 0 1 0 0-.01M18 9c0 6-12 3-12 9",
  menu: "M4 6h16M4 12h16M4 18h16",
  panel: "M3 5h18v14H3zM15 5v14",
  pause: "M8 5v14M16 5v14",
  stop: "M6 6h12v12H6z",
  attach: "M21 11l-9 9a5 5 0 0 1-7-7l9-9a3.5 3.5 0 0 1 5 5l-9 9a2 2 0 0 1-3-3l8-8",
  close: "M6 6l12 12M18 6L6 18",
  up: "M12 19V5M5 12l7-7 7 7",
} as const;

export type IconName = keyof typeof PATHS;

/** An icon at the text's size, in its colour; decorative (the button carries the label). */
export function Icon({ name }: { name: IconName }) {
  return (
    <svg
      className="icon-svg"
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d={PATHS[name]}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** A button that shows only an icon; `label` is its accessible name and tooltip. */
export function IconButton(props: {
  icon: IconName;
  label: string;
  onClick: () => void;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={`icon ${props.className ?? ""}`.trim()}
      aria-label={props.label}
      title={props.label}
      onClick={props.onClick}
    >
      <Icon name={props.icon} />
    </button>
  );
}
