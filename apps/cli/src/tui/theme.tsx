import { createContext, useContext } from "react";

/** The colours the UI uses, by role. */
export type Role = "accent" | "user" | "ok" | "error" | "warn" | "dim" | "add" | "remove" | "hunk";

/** `[appearance] theme`: `system` keeps the terminal's own shades of the basic colours. */
export type ThemeName = "system" | "light" | "dark";

/** The palette of each theme, by role. */
export const PALETTES: Readonly<Record<ThemeName, Readonly<Record<Role, string>>>> = {
  system: {
    accent: "cyan",
    user: "blue",
    ok: "green",
    error: "red",
    warn: "yellow",
    dim: "gray",
    add: "green",
    remove: "red",
    hunk: "cyan",
  },
  // Bright shades that read on a dark background.
  dark: {
    accent: "cyanBright",
    user: "blueBright",
    ok: "greenBright",
    error: "redBright",
    warn: "yellowBright",
    dim: "gray",
    add: "greenBright",
    remove: "redBright",
    hunk: "cyanBright",
  },
  // Deep shades that read on a light background (yellow and cyan wash out there).
  light: {
    accent: "#005f87",
    user: "#0000af",
    ok: "#006400",
    error: "#af0000",
    warn: "#875f00",
    dim: "#5f5f5f",
    add: "#006400",
    remove: "#af0000",
    hunk: "#5f00af",
  },
};

/** Whether colours are on (`NO_COLOR` turns them off; bold and dim stay, they are not colour). */
export const ColorContext = createContext(true);

/** The theme the settings choose (`[appearance] theme`, read as the session opens). */
export const ThemeContext = createContext<ThemeName>("system");

/** A colour for a role, or undefined when colours are off. */
export function useColor(): (role: Role) => string | undefined {
  const on = useContext(ColorContext);
  const palette = PALETTES[useContext(ThemeContext)];
  return (role) => (on ? palette[role] : undefined);
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
