/** The languages the repo map reads. */
export type MapLanguage = "typescript" | "tsx" | "javascript" | "python" | "rust" | "go";
