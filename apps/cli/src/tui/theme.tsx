import { createContext, useContext } from "react";

/** The colours the UI uses, by role. */
export type Role = "accent" | "user" | "ok" | "error" | "warn" | "dim" | "add" | "remove" | "hunk";

const COLORS: Record<Role, string> = {
  accent: "cyan",
  user: "blue",
  ok: "green",
  error: "red",
  warn: "yellow",
  dim: "gray",
  add: "green",
  remove: "red",
  hunk: "cyan",
};

/** Whether colours are on (`NO_COLOR` turns them off; bold and dim stay, they are not colour). */
export const ColorContext = createContext(true);

/** A colour for a role, or undefined when colours are off. */
export function useColor(): (role: Role) => string | undefined {
  const on = useContext(ColorContext);
  return (role) => (on ? COLORS[role] : undefined);
}

/** `NO_COLOR` (any non-empty value, no-color.org) turns colours off. */
export function colorsWanted(env: Record<string, string | undefined>): boolean {
  return !env.NO_COLOR;
}

/** Ctrl+O: tool rows print their whole output instead of its telling lines. */
export const ExpandedContext = createContext(false);

/** Whether tool rows print their whole output. */
export function useExpanded(): boolean {
  return useContext(ExpandedContext);
}
