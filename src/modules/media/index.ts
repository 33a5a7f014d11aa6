// The public face of the media module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { mediaBaseUrl } from './media.handlers';
export * as mediaRoutes from './media.routes';
export * as mediaService from './media.service';
export { MEDIA_TYPES } from './media.sniff';
export { mediaMaxBytes, uploadFromForm } from './media.upload';
