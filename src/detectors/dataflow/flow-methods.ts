import { itemAt } from "./flow-state.js";
import type { FlowSyntax } from "./flow-syntax.js";
import { anyItem, at, CONSTANT, type FlowValue, known } from "./flow-value.js";

/** What a method call gives (`result`), and what the local it was called on holds after it (`holder`), when it changed. */
export interface MethodOutcome {
  result: FlowValue;
  holder?: FlowValue;
}

/**
 * A method of a value the reader knows: a known string's own methods (folded), and the list and
 * map methods of a local's collection (`held`: the receiver is a local, so its new value is kept).
 * Undefined when the call is none of these.
 *
 * @example methodOnValue(known("abc", 1), "charAt", [known(2, 1)], 3, table, false)?.result.known // "c"
 */
export function methodOnValue(
  r: FlowValue,
  method: string,
  args: readonly FlowValue[],
  row: number,
  t: FlowSyntax,
  held: boolean,
): MethodOutcome | undefined {
  if (typeof r.known === "string") {
    const s = r.known;
    const [a0, a1] = args.map((a) => a.known);
    if (method === "charAt" && typeof a0 === "number") return { result: known(s.charAt(a0), row) };
    if (method === "toUpperCase") return { result: known(s.toUpperCase(), row) };
    if (method === "toLowerCase") return { result: known(s.toLowerCase(), row) };
    if (method === "trim") return { result: known(s.trim(), row) };
    if (method === "substring" && typeof a0 === "number")
      return { result: known(typeof a1 === "number" ? s.substring(a0, a1) : s.substring(a0), row) };
  }
  if (!held) return undefined;
  const listed = r.items ? listMethod(r, r.items, method, args, row, t) : undefined;
  return listed ?? (r.entries ? mapMethod(r, r.entries, method, args, row) : undefined);
}

/** The result and the new list of a list method on a local. */
function listMethod(
  r: FlowValue,
  list: readonly FlowValue[],
  method: string,
  args: readonly FlowValue[],
  row: number,
  t: FlowSyntax,
): MethodOutcome | undefined {
  const items = [...list];
  const [i0] = args;
  const grown = (value: FlowValue): MethodOutcome => ({ result: value, holder: value });
  if (t.listAdd.test(method) && args.length === 1) return grown({ ...r, items: [...items, i0 as FlowValue] });
  if (t.listInsert.test(method) && args.length === 2 && typeof i0?.known === "number") {
    items.splice(i0.known, 0, args[1] as FlowValue);
    return grown({ ...r, items });
  }
  if (method === "addAll" || method === "extend")
    return grown({ ...r, items: [...items, ...(i0?.items ?? [anyItem(i0 ?? CONSTANT)])] });
  if (t.listRemoveAt.test(method) && typeof i0?.known === "number") {
    const removed = items.splice(i0.known, 1)[0] ?? CONSTANT;
    return { result: removed, holder: { ...r, items } };
  }
  if (method === "set" && typeof i0?.known === "number") {
    items[i0.known] = args[1] ?? CONSTANT;
    return grown({ ...r, items });
  }
  if (method === "get" && i0) return { result: at(itemAt(r, i0), row) };
  return undefined;
}

/** The result and the new map of a map method on a local. */
function mapMethod(
  r: FlowValue,
  entries: ReadonlyMap<string, FlowValue>,
  method: string,
  args: readonly FlowValue[],
  row: number,
): MethodOutcome | undefined {
  const key = args[0]?.known;
  if (key === undefined) return undefined;
  if ((method === "put" || method === "setProperty" || method === "set") && args[1]) {
    const next = new Map(entries);
    next.set(String(key), args[1]);
    return { result: CONSTANT, holder: { ...r, entries: next } };
  }
  if (method === "get" || method === "getProperty" || method === "getOrDefault") {
    const hit = entries.get(String(key));
    return { result: at(hit ?? args[1] ?? CONSTANT, row) };
  }
  return undefined;
}
