/** Where a review's pull request comes from. Plain JSON, validated by the runner. */
export type ReviewSource =
  | { kind: "fixture"; fixturesDir: string; name: string }
  | { kind: "github"; owner: string; repo: string; number: number; headSha: string; installationId?: number };
