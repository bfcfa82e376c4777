import type { Ecosystem } from "../ecosystem.js";
import { ancestorFolders } from "../ecosystem.js";
import type { Folder } from "../walk.js";

const GRADLE_SETTINGS = ["settings.gradle", "settings.gradle.kts"];
const GRADLE_BUILD = ["build.gradle", "build.gradle.kts", ...GRADLE_SETTINGS];
const isGradleRoot = (f: Folder) => GRADLE_SETTINGS.some((n) => f.files.has(n));

/**
 * Gradle: the root of a build (settings.gradle, or a lone build.gradle) gets `test` and
 * `assemble` (build), through `./gradlew` when the wrapper is there. Subprojects of a build
 * run from its root, so they add nothing.
 */
export const gradleEcosystem: Ecosystem = {
  name: "gradle",
  applies: (folder) => GRADLE_BUILD.some((n) => folder.files.has(n)),
  async discover(ctx) {
    if (ancestorFolders(ctx).some(isGradleRoot)) return [];
    const gradle = ctx.folder.files.has("gradlew") ? "./gradlew" : "gradle";
    return [
      { ecosystem: "gradle", name: "test", kind: "test", command: `${gradle} test` },
      { ecosystem: "gradle", name: "build", kind: "build", command: `${gradle} assemble` },
    ];
  },
};

/**
 * Maven: the top pom.xml (modules below another pom run from the reactor root) gets
 * `test` and `compile` (build), through `./mvnw` when the wrapper is there.
 */
export const mavenEcosystem: Ecosystem = {
  name: "maven",
  applies: (folder) => folder.files.has("pom.xml"),
  async discover(ctx) {
    if (ancestorFolders(ctx).some((f) => f.files.has("pom.xml"))) return [];
    const mvn = ctx.folder.files.has("mvnw") ? "./mvnw" : "mvn";
    return [
      { ecosystem: "maven", name: "test", kind: "test", command: `${mvn} test` },
      { ecosystem: "maven", name: "compile", kind: "build", command: `${mvn} compile` },
    ];
  },
};
