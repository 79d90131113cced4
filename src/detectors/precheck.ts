/**
 * The detectors' textual pre-checks: cheap tests on a file's text that say a closer reading (a
 * parse, a line-by-line scan, secretlint) can find nothing, so it is skipped. A pre-check only
 * ever spares work; `withoutPrechecks` turns them all off, so a test can show that the findings
 * are the same either way (`test/detectors/precheck-differential.test.ts`, and
 * `scripts/precheck-differential.ts` over a folder of real code). Every shortcut of that kind
 * goes through `precheck` or `prefilter`, so that turning them off reaches it.
 *
 * @example if (precheck(mayCallCrypto(text))) calls = cryptoCalls(syntaxOfPatch(file));
 */
let enabled = true;

/**
 * True when the closer reading must run: the pre-check's answer, or always while pre-checks are off.
 *
 * @example precheck(false) // false (true inside withoutPrechecks)
 */
export function precheck(mayFind: boolean): boolean {
  return mayFind || !enabled;
}

/**
 * A cheap filter (a pattern a callee must match) whose every rejection the closer reading would
 * reject too: the filter itself, or undefined (keep everything) while pre-checks are off.
 *
 * @example callSites(syntax, prefilter(SINK_NAMES)) // every call while pre-checks are off
 */
export function prefilter<T>(filter: T): T | undefined {
  return enabled ? filter : undefined;
}

/**
 * Runs `work` with every pre-check off (each closer reading runs), then turns them back on.
 *
 * @example const slow = await withoutPrechecks(() => detector.detect(ctx));
 */
export async function withoutPrechecks<T>(work: () => Promise<T>): Promise<T> {
  enabled = false;
  try {
    return await work();
  } finally {
    enabled = true;
  }
}
