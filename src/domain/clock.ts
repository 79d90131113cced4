/** Where every part of the gate reads the time, so that tests can pin it. */
export type Clock = () => Date;

/**
 * The real time: the one default clock, given by `buildGate` to everything that needs one.
 *
 * @example const at = systemClock().toISOString();
 */
export const systemClock: Clock = () => new Date();
