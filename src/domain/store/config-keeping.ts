/**
 * Review configurations kept once each, under their digest: reviews that ran with the same
 * configuration share one copy (their graph state holds only the digest; see graph/review-config.ts).
 *
 * @example await keeping.keepConfig(digest, json); await keeping.configJson(digest);
 */
export interface ConfigKeeping {
  keepConfig(digest: string, json: string): Promise<void>;
  /** The configuration JSON kept under a digest; undefined when none was. */
  configJson(digest: string): Promise<string | undefined>;
}
