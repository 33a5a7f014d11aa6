import { CONFIG_DEFAULTS } from '../config';

/** The sliding window of every rate-limit bucket: one hour (a module of its own so Node-side code can import it). */
export const WINDOW_SECONDS = CONFIG_DEFAULTS.RATE_LIMIT_WINDOW_SECONDS;
