/** Model usage of one call or summed over a review. Plain JSON. */
export interface Usage {
  model_calls: number;
  input_tokens: number;
  output_tokens: number;
  /** Input tokens written to the prompt cache (billed above `input_tokens`' price). */
  cache_creation_input_tokens: number;
  /** Input tokens read from the prompt cache. */
  cache_read_input_tokens: number;
  cost_usd: number;
}

export const ZERO_USAGE: Usage = Object.freeze({
  model_calls: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cost_usd: 0,
});

/** Sums two usages field by field (the cost rounded to 1e-6 USD to keep JSON tidy). */
export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  return {
    model_calls: a.model_calls + (b.model_calls ?? 0),
    input_tokens: a.input_tokens + (b.input_tokens ?? 0),
    output_tokens: a.output_tokens + (b.output_tokens ?? 0),
    cache_creation_input_tokens: a.cache_creation_input_tokens + (b.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens: a.cache_read_input_tokens + (b.cache_read_input_tokens ?? 0),
    cost_usd: Math.round((a.cost_usd + (b.cost_usd ?? 0)) * 1e6) / 1e6,
  };
}

/**
 * Sums two usages and leaves out the fields that are zero: how the graph's state keeps a review's
 * usage, so a review that called no model carries none of it in every checkpoint. Read a field of
 * it with `?? 0`.
 *
 * @example addSparseUsage({}, { model_calls: 0 }) // {}
 */
export function addSparseUsage(a: Partial<Usage>, b: Partial<Usage>): Partial<Usage> {
  const sum = addUsage({ ...ZERO_USAGE, ...a }, b);
  return Object.fromEntries(Object.entries(sum).filter(([, v]) => v !== 0)) as Partial<Usage>;
}
