// The public face of the notifications module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { notificationListQuery, templateListQuery } from './notifications.query';
export * as notificationsRoutes from './notifications.routes';
export * as notificationsService from './notifications.service';
