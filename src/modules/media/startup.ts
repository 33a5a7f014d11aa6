// What code run at the Worker's startup takes from the media module: nothing it reaches is loaded on use
// (test/module-boundaries.node.test.ts). Written by scripts/module-faces.ts: rerun it.

export { MULTIPART_ALLOWANCE, tooLarge } from './media.limits';
