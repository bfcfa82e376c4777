import type { Reminder } from "@z-engine/context";
import type { Message, ProjectFileReader } from "@z-engine/protocol";

/** Where the repo map stands, for `/context` and hosts. */
export interface RepoMapStatus {
  /** `off`: the setting is 0; `building`: indexing; `ready`: built, joins the next user message; `active`: in the conversation. */
  readonly state: "off" | "building" | "ready" | "active" | "failed";
  /** The size of the map the conversation shows, or is about to (0 before the first). */
  readonly tokens: number;
  readonly files: number;
  readonly definitions: number;
  /** Files indexed by the last build, and how many of them it had to parse. */
  readonly indexed: number;
  readonly parsed: number;
  /** How long the last build took to index, rank and render, in ms. */
  readonly buildMs: number;
  /**
   * Where the map shown came from: `cache`, the snapshot an earlier session's build left (shown
   * from the first request, without building); `build`, a build of this session. Absent while
   * no map is shown, and for a map known only from a resumed log.
   */
  readonly source?: "cache" | "build";
  /** When the build that made the map shown finished (ms since the epoch); absent with `source`. */
  readonly builtAt?: number;
}

/**
 * Longest the first build waits, after the session's first model response, for the next
 * request to go out (a long first tool call, or a first turn without tools).
 */
export const FIRST_ROUND_WAIT_MS = 2000;

/** Longest a closing session waits for its build to stop and save. */
export const CLOSE_WAIT_MS = 1000;

/**
 * Longest the session's first user message waits for the map snapshot to be read and checked
 * (it was started when the session opened: a few ms; a slow disk gives a first request without it).
 */
export const FIRST_MAP_WAIT_MS = 250;

/**
 * Longest the first tool results of a fresh small project wait for its first build (started
 * when the first request went out), so that the map joins the second request. Generous: a
 * cold build of a few files takes 0.4 s on a quiet machine and over 2 s at a load of 19 on
 * two cores; it happens once per project.
 */
export const FIRST_BUILD_WAIT_MS = 10_000;

/** The status of a session without a repo map. */
export const OFF_MAP: RepoMapStatus = {
  state: "off",
  tokens: 0,
  files: 0,
  definitions: 0,
  indexed: 0,
  parsed: 0,
  buildMs: 0,
};

/** The reminder key of a session's nth map (a resumed session starts again at 1). */
export const repoMapKey = (n: number): string => `repo-map:${n}`;

/** What a session's repo map needs from its session. */
export interface SessionRepoMapOptions {
  readonly projectRoot: string;
  /** The tag cache file in the data folder. */
  readonly cacheFile: string;
  /**
   * The map snapshot file beside it: each build writes the map it rendered there, and a later
   * session shows it from its first request (absent: no snapshot).
   */
  readonly mapFile?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The project's door: each build passes the listed files through it (real paths inside the
   * project, regular files, the session's Read rules as they are at that build), and so does
   * every file a snapshot names before it is shown.
   */
  readonly files: ProjectFileReader;
  /** `context.repo_map_tokens`, read at each build (0: off). */
  readonly tokens: () => number;
  /** The working set, for the focus (files read or written, the user's prompts). */
  readonly messages: () => readonly Message[];
  /** Where a finished map goes: the session's reminders, which join the next user message. */
  readonly reminders: {
    add(reminder: Reminder): boolean;
    wasDelivered(key: string): boolean;
  };
  /** A problem worth a warning (a grammar that does not load, an unwritable cache). */
  readonly onProblem: (message: string) => void;
  readonly clock?: () => number;
  /** The worker script (context's by default; `null`: build on the session's thread). */
  readonly script?: URL | null;
  /** Fewer paths than this build on the session's thread (context's `WORKER_FROM_PATHS`). */
  readonly workerFrom?: number;
}

/** A map and where it came from (no source: one found in a resumed log). */
export interface Made {
  readonly map: { readonly tokens: number; readonly files: number; readonly definitions: number };
  readonly source?: "cache" | "build";
  readonly builtAt?: number;
}

/** The map the conversation shows or is about to, and its reminder key (null: found in the log). */
export type Shown = Made & { readonly key: string | null };

/** What a session's map status is made of. */
export interface StatusParts {
  readonly on: boolean;
  readonly building: boolean;
  readonly failed: boolean;
  readonly shown: Shown | null;
  readonly delivered: boolean;
  readonly stats: Pick<RepoMapStatus, "indexed" | "parsed" | "buildMs">;
}

/** The status for `parts`: off, building, ready to join, in the conversation, or failed. */
export function statusOf(parts: StatusParts): RepoMapStatus {
  const { shown } = parts;
  const state =
    !parts.on && !shown
      ? "off"
      : parts.building
        ? "building"
        : shown && !parts.delivered
          ? "ready"
          : shown
            ? "active"
            : parts.failed
              ? "failed"
              : "building";
  const size = shown?.map ?? { tokens: 0, files: 0, definitions: 0 };
  return {
    state,
    tokens: size.tokens,
    files: size.files,
    definitions: size.definitions,
    ...parts.stats,
    ...(shown?.source ? { source: shown.source } : {}),
    ...(shown?.builtAt !== undefined ? { builtAt: shown.builtAt } : {}),
  };
}
