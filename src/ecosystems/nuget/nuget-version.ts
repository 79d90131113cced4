/**
 * NuGet's version order (NuGet.Versioning's `VersionComparer`, "Package versioning" in NuGet's
 * docs): up to four numbers (a missing one is 0, leading zeros do not count), a release after its
 * pre-releases, pre-release labels compared part by part (numbers as numbers and before words,
 * words without regard to case, fewer parts first), build metadata (`+sha`) ignored. No kept
 * JavaScript library implements it; semver rejects `4.0.10.1` and `1.0.0-beta.01`.
 */

const NUGET_VERSION =
  /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-.]+)?$/;

interface NuGetVersion {
  numbers: bigint[];
  labels: string[];
}

function parse(version: string): NuGetVersion | undefined {
  const m = NUGET_VERSION.exec(version.trim());
  if (!m) return undefined;
  return {
    numbers: [m[1], m[2], m[3], m[4]].map((n) => BigInt(n ?? "0")),
    labels: m[5] === undefined ? [] : m[5].split("."),
  };
}

function compareLabel(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return Math.sign(Number(BigInt(a) - BigInt(b)));
  if (an !== bn) return an ? -1 : 1;
  const al = a.toLowerCase();
  const bl = b.toLowerCase();
  return al < bl ? -1 : al > bl ? 1 : 0;
}

/**
 * The version in NuGet's normal form (four numbers dropped to three when the fourth is 0, labels
 * kept, metadata dropped), or undefined when NuGet cannot read it (a range, a floating `1.*`).
 *
 * @example readNuGetVersion("12.0.1") // "12.0.1"
 */
export function readNuGetVersion(version: string): string | undefined {
  const v = parse(version);
  if (!v) return undefined;
  const nums = v.numbers[3] === 0n ? v.numbers.slice(0, 3) : v.numbers;
  return `${nums.join(".")}${v.labels.length > 0 ? `-${v.labels.join(".")}` : ""}`;
}

/**
 * NuGet's order of two versions: negative, zero or positive.
 *
 * @example compareNuGetVersions("13.0.1", "13.0.1-beta1") // 1
 */
export function compareNuGetVersions(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) throw new Error(`not NuGet versions: ${a}, ${b}`);
  for (let i = 0; i < 4; i++) {
    const d = (x.numbers[i] as bigint) - (y.numbers[i] as bigint);
    if (d !== 0n) return d < 0n ? -1 : 1;
  }
  if (x.labels.length === 0 || y.labels.length === 0)
    return y.labels.length - x.labels.length === 0 ? 0 : x.labels.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(x.labels.length, y.labels.length); i++) {
    const r = compareLabel(x.labels[i] as string, y.labels[i] as string);
    if (r !== 0) return r;
  }
  return Math.sign(x.labels.length - y.labels.length);
}
