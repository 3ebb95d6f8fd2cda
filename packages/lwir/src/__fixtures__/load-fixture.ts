import { readFileSync } from "node:fs";

export const fixtureNames = ["support-summarize-ticket", "compute-score", "review-candidates"] as const;
export type FixtureName = (typeof fixtureNames)[number];

/** A fresh, mutable parse of a fixture document (tests mutate it freely). */
// biome-ignore lint: fixtures are mutated through arbitrary paths in table-driven tests.
export function loadFixture(name: FixtureName): any {
  return JSON.parse(readFileSync(new URL(`./${name}.lwir.json`, import.meta.url), "utf8"));
}
