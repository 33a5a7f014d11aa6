// What code run at the Worker's startup takes from the settings module: nothing it reaches is loaded on use
// (test/module-boundaries.node.test.ts). Written by scripts/module-faces.ts: rerun it.

export { readEdgeSettings } from './settings.service';
