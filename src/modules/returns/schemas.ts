// The shapes of the returns module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { ExchangeBody } from './exchanges.schemas';
export { UpdateReturnBody } from './returns.schemas';
export type { Return } from './returns.schemas';
