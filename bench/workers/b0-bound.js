// B0 with the store's bindings, for the cold start: the same Miniflare configuration as the store
// (D1, the two limiter Durable Objects, queue producers, vars) around B0's fixed answer, so the
// store's start less this one's is what evaluating our bundle costs.
import { DurableObject } from 'cloudflare:workers';
import b0 from './b0.js';

export class RateLimiter extends DurableObject {}
export class AddressLimiter extends DurableObject {}
export default b0;
