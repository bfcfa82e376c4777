import type { RepoMapStatus } from "../repo-map/map-status.js";

const n = (v: number) => v.toLocaleString("en-US");

/** How long ago `then` was, for a person: seconds, minutes, hours or days. */
function ago(now: number, then: number): string {
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} days ago`;
}

/**
 * `/context`'s repo map line: state, size, where the map came from (the cache an earlier
 * session's build left, or a build of this session) and its age.
 */
export function mapStatusLine(map: RepoMapStatus, now: number): string {
  const size = `${n(map.tokens)} tokens (${n(map.files)} files, ${n(map.definitions)} definitions)`;
  const age = map.builtAt !== undefined ? `built ${ago(now, map.builtAt)}` : "";
  const from =
    map.source === "cache" ? `, from the cache${age ? ` (${age})` : ""}` : age ? `, ${age}` : "";
  const next = map.state === "ready" ? ", joins the next message" : "";
  return `Repo map: ${map.state}, ${size}${from}${next}`;
}
