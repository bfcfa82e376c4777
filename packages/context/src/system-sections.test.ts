import { describe, expect, it } from "vitest";
import { buildSystemSections, renderEnvironment, renderSkillsSection } from "./system-sections.js";

describe("buildSystemSections", () => {
  it("orders sections for a stable prefix and leaves out empty ones", () => {
    const sections = buildSystemSections({
      repoMap: "map",
      outputStyle: "",
      skills: renderSkillsSection([
        { name: "pdf", description: "Work with PDFs" },
        { name: "charts", description: "Draw charts" },
      ]),
      instructions: "Use pnpm.",
      environment: renderEnvironment({
        projectRoot: "/p",
        platform: "linux",
        date: "2025-01-01",
        shell: "bash",
      }),
      base: "You are an agent.",
    });
    expect(sections.map((s) => s.id)).toEqual([
      "base",
      "environment",
      "instructions",
      "skills",
      "repoMap",
    ]);
    expect(sections.every((s) => s.cacheable)).toBe(true);
    expect(sections[3]?.text).toBe(
      "# Skills\nLoad a skill with the Skill tool when the task matches its description.\n- charts: Draw charts\n- pdf: Work with PDFs",
    );
    expect(sections[1]?.text).toContain("Git repository: no");
    expect(renderSkillsSection([])).toBe("");
  });
});
