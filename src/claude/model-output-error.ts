import { GateError } from "../domain/errors.js";
import { ZERO_USAGE, type Usage } from "../domain/usage.js";

/**
 * A model answered, but not with something the gate can use (invalid JSON, a schema mismatch, a
 * policy id outside the specialty, truncation), even after one retry. The specialist node turns
 * it into a `specialist_error` escalation. `usage` is what the failed attempts cost.
 *
 * @example throw new ModelOutputError("invalid JSON twice", { usage, cause })
 */
export class ModelOutputError extends GateError {
  readonly usage: Usage;

  constructor(message: string, options?: { usage?: Usage; cause?: unknown }) {
    super("MODEL_OUTPUT_INVALID", message, options);
    this.name = "ModelOutputError";
    this.usage = options?.usage ?? { ...ZERO_USAGE };
  }
}

/**
 * A model call that was cut off (the specialist's time ran out) after the request was sent. The
 * API may have processed it, so its input is counted, at the uncached input price, in `usage`:
 * the budget errs toward overcounting, never toward spending unseen.
 *
 * @example throw new ModelCallAborted("security call aborted after 60000 ms", { usage })
 */
export class ModelCallAborted extends GateError {
  readonly usage: Usage;

  constructor(message: string, options: { usage: Usage; cause?: unknown }) {
    super("MODEL_CALL_ABORTED", message, options);
    this.name = "ModelCallAborted";
    this.usage = options.usage;
  }
}
