/**
 * @z-engine/testkit: the shared fakes every package tests with. Everything exported here
 * is public API.
 */

// Fixture repositories
export type { FixtureFile, FixtureFiles, FixtureRepo, FixtureRepoOptions } from "./fixture-repo.js";
export { createFixtureRepo, fixtureGitEnv } from "./fixture-repo.js";

// Event recording
export type { ExpectedEvent, Shape } from "./event-recorder.js";
export { EventRecorder, matchesShape } from "./event-recorder.js";
