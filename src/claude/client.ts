import Anthropic from "@anthropic-ai/sdk";

/** What the lead knows when it builds the one Anthropic client. */
export interface ModelClientConfig {
  apiKey: string;
  /** Another Messages API host (a proxy, or a loopback fake in tests). */
  baseURL?: string;
  /** SDK retries of 408/409/429/5xx (incl. 529) and connection errors; default 2. */
  maxRetries?: number;
  /** Per-request timeout in ms; default 120000. */
  timeoutMs?: number;
}

/** The client type every model module receives. */
export type ModelClient = Anthropic;

/**
 * Builds the one Anthropic client, from explicit values only: the key and host are passed in, so
 * the SDK never falls back to `ANTHROPIC_API_KEY`/`ANTHROPIC_BASE_URL` from the environment
 * (docs/design.md, reason 4). Built once by the lead and injected into the specialists and the investigator.
 *
 * @example const client = createModelClient({ apiKey: config.anthropicApiKey, maxRetries: 2 });
 */
export function createModelClient(cfg: ModelClientConfig): ModelClient {
  return new Anthropic({
    apiKey: cfg.apiKey,
    baseURL: cfg.baseURL ?? "https://api.anthropic.com",
    maxRetries: cfg.maxRetries ?? 2,
    timeout: cfg.timeoutMs ?? 120_000,
  });
}
