/**
 * The abstract values of the intra-procedural data flow (`flow-reader.ts`): what an expression may
 * hold at one point of a function. Plain data, joined where paths meet.
 *
 * A value is `outside` when it may carry data from outside the function's own constants: a request
 * (a source), a parameter, a field that is not a constant, the result of a call that received such
 * data. A constant, a choice between constants, numeric conversions and dead branches are not.
 */
export interface FlowValue {
  /** May carry data from outside the function's constants. */
  outside: boolean;
  /** Carries data read from a request (a source of the language's table). */
  source: boolean;
  /** The exact value when it is one known constant (a string's text, a number, a char, a boolean). */
  known?: string | number | boolean;
  /** The constants it may be, when it is one of a few (a choice between two literals); `known` when one. */
  choices?: readonly (string | number | boolean)[];
  /** The literal text the value is built from, joined with spaces: what the string says (its SQL keywords). */
  literal: string;
  /** Rows (0-based) of the expressions that built it. */
  rows: readonly number[];
  /** The elements of an array or list, in order, when known. */
  items?: readonly FlowValue[];
  /** The entries of a map, by constant key, when known. */
  entries?: ReadonlyMap<string, FlowValue>;
}

/** A constant of unknown value (a number from arithmetic on opaque constants, an enum member). */
export const CONSTANT: FlowValue = { outside: false, source: false, literal: "", rows: [] };

/** Data from outside: a parameter, a field, a name the function does not assign. */
export const OUTSIDE: FlowValue = { outside: true, source: false, literal: "", rows: [] };

/** Data read from a request. */
export const SOURCE: FlowValue = { outside: true, source: true, literal: "", rows: [] };

/**
 * A known constant.
 *
 * @example known("ls", 3).literal // "ls"
 */
export function known(value: string | number | boolean, row?: number): FlowValue {
  return {
    outside: false,
    source: false,
    known: value,
    literal: typeof value === "string" ? value : "",
    rows: row === undefined ? [] : [row],
  };
}

/** The same value, also built at `row`. */
export function at(value: FlowValue, row: number): FlowValue {
  return value.rows.includes(row) ? value : { ...value, rows: [...value.rows, row] };
}

/**
 * What either of two paths may hold: outside when either is; known only when both know the same.
 *
 * @example join(known("a"), SOURCE).outside // true
 */
export function join(a: FlowValue, b: FlowValue): FlowValue {
  if (a === b) return a;
  const literal = eitherLiteral(a.literal, b.literal);
  const out: FlowValue = {
    outside: a.outside || b.outside,
    source: a.source || b.source,
    literal,
    rows: union(a.rows, b.rows),
  };
  if (a.known !== undefined && a.known === b.known) out.known = a.known;
  else if (!out.outside) {
    const choices = [...new Set([...choicesOf(a), ...choicesOf(b)])];
    if (choices.length > 1 && choices.length <= MAX_CHOICES && choicesOf(a).length > 0 && choicesOf(b).length > 0)
      out.choices = choices;
  }
  const items = joinItems(a.items, b.items);
  if (items) out.items = items;
  const entries = joinEntries(a.entries, b.entries);
  if (entries) out.entries = entries;
  // A collection whose elements no longer line up carries whatever any element carried.
  if ((a.items || b.items) && !items) lift(out, [...(a.items ?? []), ...(b.items ?? [])]);
  if ((a.entries || b.entries) && !entries) lift(out, [...(a.entries?.values() ?? []), ...(b.entries?.values() ?? [])]);
  return out;
}

/**
 * The literal text of a value that holds one of two: both texts, or the one that holds the other
 * already. A join is a choice, not a sequence, so a match across the two texts was never one the
 * value could hold; keeping a contained text again only repeats it. (It did: a value joined at every
 * branch and loop pass of a long function grew to 6 MB of repeats, copied at each join, most of
 * the CPU of reviewing this repository's own source.)
 *
 * @example eitherLiteral("SELECT a FROM t", "FROM t") // "SELECT a FROM t"
 */
function eitherLiteral(a: string, b: string): string {
  if (a === b || b === "") return a;
  if (a === "") return b;
  if (a.includes(b)) return a;
  if (b.includes(a)) return b;
  return `${a} ${b}`;
}

/**
 * Text made of two values, in order (`a + b`, an append, a substitution).
 *
 * @example concat(known("ls "), SOURCE).outside // true
 */
export function concat(a: FlowValue, b: FlowValue, row?: number): FlowValue {
  const out: FlowValue = {
    outside: a.outside || b.outside,
    source: a.source || b.source,
    literal: [a.literal, b.literal].filter((t) => t !== "").join(" "),
    rows: row === undefined ? union(a.rows, b.rows) : union(union(a.rows, b.rows), [row]),
  };
  if (a.known !== undefined && b.known !== undefined) {
    out.known = `${a.known}${b.known}`;
    out.literal = out.known;
  } else if (!out.outside) {
    // Text made of a choice stays a choice: `"FROM " + (test ? "t_test" : "t")`.
    const left = choicesOf(a);
    const right = choicesOf(b);
    if (left.length > 0 && right.length > 0 && left.length * right.length <= MAX_CHOICES)
      out.choices = left.flatMap((l) => right.map((r) => `${l}${r}`));
  }
  return out;
}

/**
 * What a value made from all of these may hold (a call's result from its receiver and arguments):
 * outside when any is; no known value, no elements.
 *
 * @example derived([known("a"), OUTSIDE]).outside // true
 */
export function derived(values: readonly FlowValue[], row?: number): FlowValue {
  const rows = values.reduce<readonly number[]>((all, v) => union(all, v.rows), row === undefined ? [] : [row]);
  return {
    outside: values.some((v) => carried(v).outside),
    source: values.some((v) => carried(v).source),
    literal: values
      .map((v) => v.literal)
      .filter((t) => t !== "")
      .join(" "),
    rows,
  };
}

/** How many constants a choice keeps before it is only "a constant". */
const MAX_CHOICES = 8;

/**
 * The constants a value may be: its one known value, its choices, or none.
 *
 * @example choicesOf(join(known("sh"), known("cmd.exe"))) // ["sh", "cmd.exe"]
 */
export function choicesOf(v: FlowValue): readonly (string | number | boolean)[] {
  if (v.known !== undefined) return [v.known];
  return v.choices ?? [];
}

/** Every element of a collection joined, as what an unknown index reads. */
export function anyItem(value: FlowValue): FlowValue {
  const parts = [...(value.items ?? []), ...(value.entries?.values() ?? [])];
  if (parts.length === 0) return { ...value, items: undefined, entries: undefined } as FlowValue;
  return parts.reduce(join);
}

/** Folds what elements carry into the value that lost them. */
function lift(out: FlowValue, parts: readonly FlowValue[]): void {
  for (const p of parts) {
    const c = carried(p);
    out.outside ||= c.outside;
    out.source ||= c.source;
  }
}

/**
 * What a value carries, its elements' included: a list holding a request value carries it.
 *
 * @example carried({ ...CONSTANT, items: [SOURCE] }).outside // true
 */
export function carried(v: FlowValue): { outside: boolean; source: boolean } {
  let outside = v.outside;
  let source = v.source;
  for (const p of [...(v.items ?? []), ...(v.entries?.values() ?? [])]) {
    const c = carried(p);
    outside ||= c.outside;
    source ||= c.source;
  }
  return { outside, source };
}

function union(a: readonly number[], b: readonly number[]): readonly number[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = [...a];
  for (const r of b) if (!out.includes(r)) out.push(r);
  return out;
}

function joinItems(a?: readonly FlowValue[], b?: readonly FlowValue[]): readonly FlowValue[] | undefined {
  if (!a || !b) return a === b ? a : undefined;
  if (a.length !== b.length) return undefined;
  return a.map((x, i) => join(x, b[i] ?? x));
}

function joinEntries(
  a?: ReadonlyMap<string, FlowValue>,
  b?: ReadonlyMap<string, FlowValue>,
): ReadonlyMap<string, FlowValue> | undefined {
  if (!a || !b) return a === b ? a : undefined;
  const out = new Map(a);
  for (const [k, v] of b) out.set(k, out.has(k) ? join(out.get(k) as FlowValue, v) : v);
  return out;
}
