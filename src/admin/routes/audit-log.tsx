import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { AUDIT_RESOURCES } from '../../db/audit-triggers';
import { auditLogListQuery, auditLogRoutes as routes, auditLogService as service } from '../../modules/audit-log';
import type { AuditEntry } from '../../modules/audit-log/schemas';
import { emptyForm } from '../components/form';
import { guard, page } from '../context';
import { listQuery, pageOf } from '../list';
import { AuditEntryPage, AuditLogPage } from '../pages/audit-log';

const HERE = '/admin/audit-log';

/** Every resource name the log can hold, for the filter. */
const RESOURCES = AUDIT_RESOURCES;

/** Where the panel shows a resource, for those it has a page of. */
const PAGES: Record<string, (id: string) => string> = {
  product: (id) => `/admin/products/${id}`,
  order: (id) => `/admin/orders/${id}`,
  webhook: (id) => `/admin/webhooks/${id}`,
  notification_template: (id) => `/admin/notifications/${id}`,
  coupon: () => '/admin/coupons',
  api_key: () => '/admin/settings/api-keys',
  settings: () => '/admin/settings',
  tax_class: (code) => `/admin/settings/tax-classes/${code}`,
};
const resourceHref = (e: AuditEntry) => PAGES[e.resource]?.(encodeURIComponent(e.resourceId)) ?? null;

export const auditLogRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.listAuditLog), async (c) => {
    const { query, values } = listQuery(c, auditLogListQuery);
    const { items, total } = await service.listAuditLog(c.var.db, query);
    return page(
      c,
      { title: 'Audit log', active: HERE },
      <AuditLogPage entries={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} resources={RESOURCES} />,
    );
  })
  .get('/:id', guard(routes.getAuditEntry), async (c) => {
    const entry = await service.getAuditEntry(c.var.db, c.req.param('id'));
    return page(c, { title: `Audit entry ${entry.id}`, active: HERE }, <AuditEntryPage entry={entry} resourceHref={resourceHref(entry)} />);
  });
