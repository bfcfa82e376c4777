import { latestBuiltinModel } from "@z-engine/llm";

/** Names in a definition's `model` that mean "the parent session's model". */
const INHERITED = new Set(["", "inherit", "main"]);

/** Whether a definition's `model` means the parent session's model (`inherit`, `main`, empty). */
export function inheritsModel(model: string): boolean {
  return INHERITED.has(model.trim().toLowerCase());
}

/** Claude Code's family aliases for a definition's `model`. */
const FAMILIES = new Set(["opus", "sonnet", "haiku"]);

const familyOf = (model: string): string | undefined =>
  /(?:^|[/.:])claude-(?:\d+-(?:\d+-)?)?(opus|sonnet|haiku)\b/i.exec(model)?.[1]?.toLowerCase();

/** The session's models, as a definition's model is resolved against them. */
export interface SessionModels {
  /** The main model now (after `/model` and a command's turn override). */
  readonly main: string;
  /** The fast role's model. */
  readonly fast: string;
  /** `[model] review` when the settings name one (else reviews inherit the main model). */
  readonly review?: string;
}

/**
 * The model id a subagent runs with, from its definition's `model`:
 * - `inherit` (the default), `main` or empty: the session's main model, read at each request;
 * - `fast`: the session's fast model;
 * - `review`: the session's review model (`[model] review`), else its main model;
 * - a Claude Code alias (`opus`, `sonnet`, `haiku`): the session's main model when it is of
 *   that family, else its fast model when that is, else, when the session runs a Claude
 *   model, the same provider prefix (`anthropic/`, a Bedrock region, ...) with the newest
 *   model of that family in the built-in catalog (llm's `latestBuiltinModel`); a session on another provider's models inherits its main
 *   model (an alias there names nothing it can run);
 * - anything else: a model id, used as written (the catalog prices it, as any model).
 * Pure; case-insensitive for the keywords.
 */
export function resolveAgentModel(model: string, session: SessionModels): string {
  const name = model.trim();
  const key = name.toLowerCase();
  if (INHERITED.has(key)) return session.main;
  if (key === "fast") return session.fast;
  if (key === "review") return session.review || session.main;
  if (!FAMILIES.has(key)) return name;
  if (familyOf(session.main) === key) return session.main;
  if (familyOf(session.fast) === key) return session.fast;
  const claude = /^(.*?)claude-/i.exec(session.main);
  const latest = latestBuiltinModel(key);
  return claude && latest ? `${claude[1]}${latest}` : session.main;
}

/** A session's models as {@link resolveAgentModel} takes them: its main model now, and its roles'. */
export function sessionModels(core: {
  readonly model: string;
  readonly config: { readonly fastModel: string; readonly reviewModel: string | undefined };
}): SessionModels {
  const review = core.config.reviewModel;
  return { main: core.model, fast: core.config.fastModel, ...(review ? { review } : {}) };
}
