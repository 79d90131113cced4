import { performance } from "node:perf_hooks";

/** min, median and max of a series of measurements. */
export interface Stats {
  min: number;
  median: number;
  max: number;
  runs: number[];
}

/** The median (the mean of the two middle values of an even count). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

const benchStarted = performance.now();

/** One line of progress on stderr, with the seconds since the bench started (stdout stays for figures). */
export function progress(message: string): void {
  process.stderr.write(`  [${((performance.now() - benchStarted) / 1000).toFixed(1)}s] ${message}\n`);
}

/**
 * Summarises measurements.
 *
 * @example statsOf([3, 1, 2]) // { min: 1, median: 2, max: 3, runs: [3, 1, 2] }
 */
export function statsOf(values: number[]): Stats {
  return {
    min: round(Math.min(...values)),
    median: round(median(values)),
    max: round(Math.max(...values)),
    runs: values.map((v) => round(v)),
  };
}

/** One side of a paired figure. */
export interface Side {
  label: string;
  unit: string;
  stats: Stats;
}

/**
 * One figure of `npm run bench`: a contender against a baseline measured in the same run, pair by
 * pair (A B A B ...), so a drift of the machine's speed hits both sides alike. `ratio` is A/B per
 * pair; `goal` is the bound on the ratio's median (or on `a` when there is no baseline).
 */
export interface Figure {
  id: string;
  what: string;
  a: Side;
  b?: Side;
  ratio?: Stats;
  /** The bound the figure is held to, if any. */
  goal?: { on: "ratio" | "a"; max?: number; min?: number };
  /** Whether the median meets the goal (absent without a goal). */
  met?: boolean;
  notes?: string[];
}

/**
 * Runs `a` and `b` in turn, `runs` pairs after `warmup` unpaired rounds; each call returns one
 * measurement (a duration, a size, a rate...).
 */
export async function paired(
  a: () => Promise<number>,
  b: () => Promise<number>,
  opts: { runs: number; warmup?: number; label?: string },
): Promise<{ a: number[]; b: number[]; ratio: number[] }> {
  const warmup = opts.warmup ?? 1;
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
    progress(`${opts.label ?? "pair"}: warmup ${i + 1}/${warmup} done`);
  }
  const out = { a: [] as number[], b: [] as number[], ratio: [] as number[] };
  for (let i = 0; i < opts.runs; i++) {
    // Alternate which side goes first, so neither always runs on a warmer machine.
    let x: number;
    let y: number;
    if (i % 2 === 0) {
      x = await a();
      y = await b();
    } else {
      y = await b();
      x = await a();
    }
    out.a.push(x);
    out.b.push(y);
    out.ratio.push(y === 0 ? Number.POSITIVE_INFINITY : x / y);
    progress(`${opts.label ?? "pair"}: round ${i + 1}/${opts.runs}: ${round(x)} / ${round(y)}`);
  }
  return out;
}

/** Builds a paired figure and judges its goal on the ratio's median. */
export function pairedFigure(
  id: string,
  what: string,
  a: { label: string; unit: string },
  b: { label: string; unit: string },
  m: { a: number[]; b: number[]; ratio: number[] },
  goal: { max?: number; min?: number },
  notes?: string[],
): Figure {
  const ratio = statsOf(m.ratio);
  return {
    id,
    what,
    a: { ...a, stats: statsOf(m.a) },
    b: { ...b, stats: statsOf(m.b) },
    ratio,
    goal: { on: "ratio", ...goal },
    met: within(ratio.median, goal),
    ...(notes ? { notes } : {}),
  };
}

/** A figure without a baseline (an absolute bound, e.g. CPU seconds). */
export function singleFigure(
  id: string,
  what: string,
  a: { label: string; unit: string },
  values: number[],
  goal?: { max?: number; min?: number },
  notes?: string[],
): Figure {
  const stats = statsOf(values);
  return {
    id,
    what,
    a: { ...a, stats },
    ...(goal ? { goal: { on: "a" as const, ...goal }, met: within(stats.median, goal) } : {}),
    ...(notes ? { notes } : {}),
  };
}

function within(v: number, goal: { max?: number; min?: number }): boolean {
  return (goal.max === undefined || v <= goal.max) && (goal.min === undefined || v >= goal.min);
}
