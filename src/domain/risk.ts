/** The risk gate's verdict on a PR (cost gate one). Plain JSON. */
export interface Risk {
  /** 0-100. */
  score: number;
  /** The dominant kind of change: docs, tests, deps, ci, auth, code, config, mixed, empty. */
  class: string;
  /** Why, in short phrases a person reads ("adds a runtime dependency", "touches auth code"). */
  reasons: string[];
}
