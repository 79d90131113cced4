/**
 * Maven's version order, as Maven's own `ComparableVersion` defines it (maven-artifact, "Version
 * Order Specification"): a version is a list of items split at `.`, `-` and each change between
 * digits and letters; a `-` or such a change opens a sub-list; numbers compare as numbers,
 * qualifiers in the order alpha < beta < milestone < rc (= cr) < snapshot < release (`""`, `ga`,
 * `final`, `release`) < sp, unknown qualifiers after them by name; trailing zeros and release
 * qualifiers are dropped (`1.0` = `1` = `1.0.0.ga`). A hand port: no kept JavaScript library
 * implements it, and Renovate's own copy ships only inside the whole `renovate` package.
 */

type Item = { kind: "int"; value: bigint } | { kind: "string"; value: string } | { kind: "list"; items: Item[] };

const QUALIFIERS = ["alpha", "beta", "milestone", "rc", "snapshot", "", "sp"];
const ALIASES: Record<string, string> = { ga: "", final: "", release: "", cr: "rc" };
const RELEASE_INDEX = String(QUALIFIERS.indexOf(""));

function stringItem(value: string, followedByDigit: boolean): Item {
  let v = value;
  if (followedByDigit && v.length === 1) v = v === "a" ? "alpha" : v === "b" ? "beta" : v === "m" ? "milestone" : v;
  return { kind: "string", value: ALIASES[v] ?? v };
}

/** A qualifier's sort key, compared as a string (as Maven does): known ones by index, others after them. */
function qualifierKey(q: string): string {
  const i = QUALIFIERS.indexOf(q);
  return i === -1 ? `${QUALIFIERS.length}-${q}` : String(i);
}

const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function isNull(item: Item): boolean {
  if (item.kind === "int") return item.value === 0n;
  if (item.kind === "string") return qualifierKey(item.value) === RELEASE_INDEX;
  return item.items.length === 0;
}

function normalize(list: Item[]): void {
  for (let i = list.length - 1; i >= 0; i--) {
    const last = list[i] as Item;
    if (isNull(last)) list.splice(i, 1);
    else if (last.kind !== "list") break;
  }
}

function parseItem(isDigit: boolean, text: string): Item {
  return isDigit ? { kind: "int", value: BigInt(text) } : stringItem(text, false);
}

/** The item list of a version, as `ComparableVersion.parseVersion` builds it. */
function parse(version: string): Item {
  const v = version.toLowerCase();
  const root: Item[] = [];
  let list = root;
  const stack: Item[][] = [root];
  const open = () => {
    const next: Item[] = [];
    list.push({ kind: "list", items: next });
    list = next;
    stack.push(next);
  };
  let isDigit = false;
  let start = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v[i] as string;
    if (c === ".") {
      list.push(i === start ? { kind: "int", value: 0n } : parseItem(isDigit, v.slice(start, i)));
      start = i + 1;
    } else if (c === "-") {
      list.push(i === start ? { kind: "int", value: 0n } : parseItem(isDigit, v.slice(start, i)));
      start = i + 1;
      open();
    } else if (c >= "0" && c <= "9") {
      if (!isDigit && i > start) {
        list.push(stringItem(v.slice(start, i), true));
        start = i;
        open();
      }
      isDigit = true;
    } else {
      if (isDigit && i > start) {
        list.push(parseItem(true, v.slice(start, i)));
        start = i;
        open();
      }
      isDigit = false;
    }
  }
  if (v.length > start) list.push(parseItem(isDigit, v.slice(start)));
  while (stack.length > 0) normalize(stack.pop() as Item[]);
  return { kind: "list", items: root };
}

/** `a` against `b`, where `b` may be absent (Maven's `null`: a shorter version's missing item). */
function compareItem(a: Item, b: Item | undefined): number {
  if (a.kind === "int") {
    if (b === undefined) return a.value === 0n ? 0 : 1;
    if (b.kind === "int") return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
    return 1; // a number is newer than a qualifier or a sub-list
  }
  if (a.kind === "string") {
    if (b === undefined) return cmpStr(qualifierKey(a.value), RELEASE_INDEX);
    if (b.kind === "string") return cmpStr(qualifierKey(a.value), qualifierKey(b.value));
    return -1;
  }
  if (b === undefined) return a.items[0] === undefined ? 0 : compareItem(a.items[0], undefined);
  if (b.kind === "int") return -1;
  if (b.kind === "string") return 1;
  for (let i = 0; i < Math.max(a.items.length, b.items.length); i++) {
    const l = a.items[i];
    const r = b.items[i];
    const result = l === undefined ? (r === undefined ? 0 : -compareItem(r, undefined)) : compareItem(l, r);
    if (result !== 0) return result;
  }
  return 0;
}

/** A Maven version: what `<version>` holds once properties are filled in (no `${`, range or space). */
const MAVEN_VERSION = /^[0-9A-Za-z][0-9A-Za-z._+-]*$/;

/**
 * The version as Maven reads it, or undefined for text that is no version (a range, `${x}`).
 *
 * @example readMavenVersion("2.14.1") // "2.14.1"
 */
export function readMavenVersion(version: string): string | undefined {
  const v = version.trim();
  return MAVEN_VERSION.test(v) ? v : undefined;
}

/**
 * Maven's order of two versions: negative, zero or positive.
 *
 * @example compareMavenVersions("2.0-beta9", "2.0") // -1
 */
export function compareMavenVersions(a: string, b: string): number {
  return Math.sign(compareItem(parse(a), parse(b)));
}
