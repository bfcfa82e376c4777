// Diffs: a tool's unified diff (Edit/Write), and the Changes screen's hunks with their revert.
import type { DiffHunk } from "@z-engine/engine";
import type { ToolDisplay } from "@z-engine/protocol";

function lineClass(line: string): string | undefined {
  if (line.startsWith("+") && !line.startsWith("+++")) return "add";
  if (line.startsWith("-") && !line.startsWith("---")) return "del";
  if (line.startsWith("@@")) return "hunk";
  return undefined;
}

/** A tool's diff display: its path, counts and the unified diff's lines. */
export function DiffView({ display }: { display: Extract<ToolDisplay, { kind: "diff" }> }) {
  return (
    <section className="diff" aria-label={`diff of ${display.path}`}>
      <div className="diff-head">
        {display.path} <span className="add-count">+{display.added}</span>{" "}
        <span className="del-count">-{display.removed}</span>
      </div>
      <pre>
        {display.diff.split("\n").map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are positional
          <div key={i} className={lineClass(line)}>
            {line || " "}
          </div>
        ))}
      </pre>
    </section>
  );
}

/** One hunk of a review, with its header and, when given, its revert button. */
export function HunkView({
  hunk,
  onRevert,
}: {
  hunk: DiffHunk;
  onRevert?: (() => void) | undefined;
}) {
  return (
    <div className="hunk-block" data-testid="hunk">
      <div className="hunk-head">
        <code>
          @@ -{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@
        </code>
        {onRevert ? (
          <button type="button" className="small" onClick={onRevert}>
            Revert hunk
          </button>
        ) : null}
      </div>
      <pre>
        {hunk.lines.map((line, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are positional
            key={i}
            className={line.kind === "+" ? "add" : line.kind === "-" ? "del" : undefined}
          >
            {line.kind}
            {line.text || " "}
          </div>
        ))}
      </pre>
    </div>
  );
}
