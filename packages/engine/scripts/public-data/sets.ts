// The public evaluation and training sets, split by a fixed hash so that no example is in both:
// gitleaks' rule cases by their rule file (a provider's cases stay on one side), git output and
// NL2Bash commands by their text. Half of each goes to evaluation, half may be trained on.
import { readFileSync } from "node:fs";
import { fnv1a } from "../../src/decisions/classifiers/features.js";
import { riskyReason } from "./risky-rules.js";

export type Part = "eval" | "train";

/** One text of tool output and whether it holds a credential (gitleaks' own label). */
export interface CredentialCase {
  readonly source: string;
  readonly text: string;
  readonly label: 0 | 1;
}

/** One shell command, its label and the rule that made it risky. */
export interface CommandCase {
  readonly command: string;
  readonly label: 0 | 1;
  readonly reason?: string;
}

const partOf = (key: string): Part => (fnv1a(key) % 2 === 0 ? "eval" : "train");
const file = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

/** gitleaks' cases in `part`. */
export function credentialCases(part: Part): CredentialCase[] {
  return file("gitleaks/cases.jsonl")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CredentialCase)
    .filter((c) => partOf(c.source.endsWith(".go") ? c.source : c.text) === part);
}

/** NL2Bash's distinct commands in `part`, labelled by risky-rules.ts. */
export function commandCases(part: Part): CommandCase[] {
  const commands = [
    ...new Set(
      file("nl2bash/all.cm")
        .split("\n")
        .filter((l) => l.trim()),
    ),
  ];
  return commands
    .filter((c) => partOf(c) === part)
    .map((command) => {
      const reason = riskyReason(command);
      return reason ? { command, label: 1, reason } : { command, label: 0 };
    });
}

/** Words joined by separators, no digits: a key's name (`api_token`), not its value. */
const NAME_LIKE = /^[A-Za-z]+(?:[_.\-/][A-Za-z]+)*$/;

/**
 * The candidate tokens (as screen_request finds them) of gitleaks' cases in `part`, labelled
 * for training: every token of a case without a credential is 0; in a case with one, the
 * tokens that look like a value (not {@link NAME_LIKE}) are 1 and names are 0.
 */
export function credentialTokens(
  part: Part,
  candidates: (text: string) => readonly { token: string; context: string }[],
): { token: string; context: string; label: 0 | 1 }[] {
  return credentialCases(part).flatMap((c) =>
    candidates(c.text).map((t) => ({
      ...t,
      label: c.label === 1 && !NAME_LIKE.test(t.token) ? 1 : 0,
    })),
  );
}
