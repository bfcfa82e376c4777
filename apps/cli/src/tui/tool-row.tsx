import type { ToolDisplay } from "@z-engine/protocol";
import { Box, Text } from "ink";
import { formatSeconds } from "./format.js";
import { type Folded, failureSummary, headSummary } from "./output-summary.js";
import { useColor, useExpanded } from "./theme.js";
import type { CheckLine, Item } from "./view.js";

/** The fold hint under a row whose output is cut: Ctrl+O shows all of it. */
export function More({ hidden }: { hidden: number }) {
  if (hidden <= 0) return null;
  return (
    <Text dimColor>
      {"  "}… +{hidden} line{hidden === 1 ? "" : "s"} (ctrl+o to expand)
    </Text>
  );
}

const ALL = Number.MAX_SAFE_INTEGER;

/** Collapses long output: the first `keep` lines and how many more there are. */
export function collapse(text: string, keep: number): Folded {
  const lines = text.replace(/\n+$/, "").split("\n");
  return { lines: lines.slice(0, keep), hidden: Math.max(0, lines.length - keep) };
}

function Lines({ folded, color }: { folded: Folded; color?: string | undefined }) {
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {folded.lines.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: output lines have no other identity.
        <Text key={i} dimColor={color === undefined} color={color} wrap="truncate-end">
          {l || " "}
        </Text>
      ))}
    </Box>
  );
}

/** A unified diff, coloured by line, at most `keep` lines. */
export function Diff({ diff, keep = 20 }: { diff: string; keep?: number }) {
  const c = useColor();
  const { lines, hidden } = collapse(diff, useExpanded() ? ALL : keep);
  const color = (line: string) =>
    line.startsWith("+++") || line.startsWith("---")
      ? undefined
      : line.startsWith("+")
        ? c("add")
        : line.startsWith("-")
          ? c("remove")
          : line.startsWith("@@")
            ? c("hunk")
            : undefined;
  return (
    <Box flexDirection="column">
      <Box flexDirection="column" paddingLeft={2}>
        {lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: diff lines have no other identity.
          <Text key={i} color={color(line)} wrap="truncate-end">
            {line}
          </Text>
        ))}
      </Box>
      <More hidden={hidden} />
    </Box>
  );
}

/** What a command's row shows: a failure's assertion and counts, else its first lines; all of it expanded. */
export function commandFold(
  display: Extract<ToolDisplay, { kind: "command" }>,
  keep = 3,
  expanded = false,
): Folded {
  const output = display.output ?? "";
  if (expanded) return collapse(output, ALL);
  const failed = display.exitCode !== undefined && display.exitCode !== 0;
  return failed ? failureSummary(output) : headSummary(output, keep);
}

/** What a tool showed, folded: a diff, a command's telling lines, files, todos or text. */
export function Display({ display, keep }: { display: ToolDisplay; keep?: number }) {
  const expanded = useExpanded();
  switch (display.kind) {
    case "diff":
      return (
        <Box flexDirection="column">
          <Text dimColor>
            {"  "}
            {display.path} +{display.added} -{display.removed}
          </Text>
          <Diff diff={display.diff} keep={keep ?? 20} />
        </Box>
      );
    case "command": {
      const folded = commandFold(display, keep, expanded);
      return (
        <Box flexDirection="column">
          <Text dimColor>
            {"  "}$ {display.command}
          </Text>
          <Lines folded={folded} />
          <More hidden={folded.hidden} />
        </Box>
      );
    }
    case "files":
      return (
        <Text dimColor>
          {"  "}
          {display.paths.length} file{display.paths.length === 1 ? "" : "s"}
          {display.truncated ? " (truncated)" : ""}
        </Text>
      );
    case "todos":
      return (
        <Box flexDirection="column" paddingLeft={2}>
          {display.todos.map((t) => (
            <Text key={t.content} dimColor={t.status === "completed"}>
              {t.status === "completed" ? "☒" : t.status === "in_progress" ? "◐" : "☐"} {t.content}
            </Text>
          ))}
        </Box>
      );
    default: {
      const folded = collapse(display.text, expanded ? ALL : (keep ?? 3));
      return (
        <Box flexDirection="column">
          <Lines folded={folded} />
          <More hidden={folded.hidden} />
        </Box>
      );
    }
  }
}

/** "npm:test passed (3 passed)" / "npm:test failed (exit 1; 1 of 1 failed)". */
export function checkSummary(check: CheckLine): string {
  const parts: string[] = [];
  if (check.exitCode === null) parts.push("killed");
  else if (!check.passed) parts.push(`exit ${check.exitCode}`);
  const c = check.counts;
  if (c)
    parts.push(
      c.failed > 0 ? `${c.failed} of ${c.passed + c.failed} failed` : `${c.passed} passed`,
    );
  return `${check.checkId} ${check.passed ? "passed" : "failed"}${parts.length ? ` (${parts.join("; ")})` : ""}`;
}

/** One recorded check: passed or failed, and a failure's telling lines. */
export function CheckRow({ check }: { check: CheckLine }) {
  const c = useColor();
  const expanded = useExpanded();
  const folded = expanded
    ? collapse(check.outputTail, ALL)
    : check.passed
      ? undefined
      : failureSummary(check.outputTail);
  return (
    <Box flexDirection="column">
      <Text>
        {"  "}
        <Text color={check.passed ? c("ok") : c("error")}>{check.passed ? "✓" : "✗"}</Text>{" "}
        {checkSummary(check)}
      </Text>
      {folded ? (
        <Box flexDirection="column" paddingLeft={2}>
          <Lines folded={folded} />
          <More hidden={folded.hidden} />
        </Box>
      ) : null}
    </Box>
  );
}

const STATUS_MARK = { ok: "●", error: "✗", denied: "⊘", cancelled: "○" } as const;

/** A finished tool call: its status, title and time, then what it showed. */
export function ToolRow({ item }: { item: Extract<Item, { kind: "tool" }> }) {
  const c = useColor();
  const color = item.status === "ok" ? c("ok") : item.status === "error" ? c("error") : c("warn");
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={color}>{STATUS_MARK[item.status]} </Text>
        <Text bold>{item.title}</Text>
        <Text dimColor>
          {item.status === "ok" ? "" : ` ${item.status}`} · {formatSeconds(item.durationMs)}
        </Text>
      </Text>
      {item.feedback ? (
        <Text color={c("warn")}>
          {"  "}↳ your feedback: {item.feedback}
        </Text>
      ) : null}
      {item.display ? <Display display={item.display} /> : null}
      {(item.checks ?? []).map((check, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: checks of one call have no other identity.
        <CheckRow key={i} check={check} />
      ))}
    </Box>
  );
}
