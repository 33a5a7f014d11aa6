import type { AppRouteHandler } from '../../lib/openapi';
import type { health } from './health.routes';

export const getHealth: AppRouteHandler<typeof health> = async (c) => {
  let database: 'ok' | 'unavailable' = 'ok';
  try {
    await c.env.DB.prepare('SELECT 1').first();
  } catch {
    database = 'unavailable';
  }
  const data = { status: database === 'ok' ? ('ok' as const) : ('degraded' as const), database, time: new Date().toISOString() };
  return c.json({ success: true as const, data, message: database === 'ok' ? 'OK' : 'Database unavailable' }, database === 'ok' ? 200 : 503);
};
