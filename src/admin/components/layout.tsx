import type { Child } from 'hono/jsx';
import { hasPermission } from '../../lib/access';
import type { AdminSession } from '../session';
import { CsrfField } from './form';

export interface Flash {
  kind: 'ok' | 'error';
  text: string;
}

interface NavItem {
  href: string;
  label: string;
  /** Shown when the user holds any of these permissions (empty: everyone). */
  needs: string[];
}

interface NavGroup {
  /** null: the items stand alone (the dashboard). */
  label: string | null;
  items: NavItem[];
}

/** The panel's areas, grouped as the API is; each shown only to a user who may read it. */
const NAV: NavGroup[] = [
  {
    label: null,
    items: [
      { href: '/admin', label: 'Dashboard', needs: [] },
      { href: '/admin/reports', label: 'Reports', needs: ['reports:read'] },
    ],
  },
  {
    label: 'Orders',
    items: [
      { href: '/admin/orders', label: 'Orders', needs: ['orders:read', 'orders:write'] },
      { href: '/admin/carts', label: 'Carts', needs: ['carts:read', 'carts:write', 'orders:write'] },
      { href: '/admin/shipments', label: 'Shipments', needs: ['shipments:read', 'shipments:write', 'orders:read', 'orders:write'] },
      { href: '/admin/returns', label: 'Returns', needs: ['returns:read', 'returns:write'] },
    ],
  },
  {
    label: 'Catalogue',
    items: [
      { href: '/admin/products', label: 'Products', needs: ['products:read', 'products:write'] },
      { href: '/admin/categories', label: 'Categories', needs: ['categories:write'] },
      { href: '/admin/brands', label: 'Brands', needs: ['brands:write'] },
      { href: '/admin/vendors', label: 'Vendors', needs: ['vendors:read', 'vendors:write'] },
      { href: '/admin/inventory', label: 'Inventory', needs: ['inventory:read', 'inventory:write'] },
      { href: '/admin/price-lists', label: 'Price lists', needs: ['price-lists:read'] },
    ],
  },
  {
    label: 'Customers',
    items: [
      { href: '/admin/customers', label: 'Customers', needs: ['customers:read', 'customers:write'] },
      { href: '/admin/customer-groups', label: 'Customer groups', needs: ['customers:read'] },
    ],
  },
  {
    label: 'Content',
    items: [
      { href: '/admin/content/pages', label: 'Pages', needs: ['content:write'] },
      { href: '/admin/content/menus', label: 'Menus', needs: ['content:write'] },
      { href: '/admin/content/banners', label: 'Banners', needs: ['content:write'] },
    ],
  },
  {
    label: 'Marketing',
    items: [
      { href: '/admin/coupons', label: 'Coupons', needs: ['coupons:read'] },
      { href: '/admin/promotions', label: 'Promotions', needs: ['promotions:read'] },
      { href: '/admin/gift-cards', label: 'Gift cards', needs: ['gift-cards:read'] },
      { href: '/admin/notifications', label: 'Notifications', needs: ['notifications:read', 'notifications:write'] },
    ],
  },
  {
    label: 'Settings',
    items: [
      { href: '/admin/settings', label: 'Store', needs: ['settings:read'] },
      { href: '/admin/settings/tax-classes', label: 'Tax classes', needs: ['settings:read'] },
      { href: '/admin/settings/shipping', label: 'Shipping', needs: ['settings:read'] },
      { href: '/admin/users', label: 'Staff', needs: ['users:read', 'users:write'] },
      { href: '/admin/roles', label: 'Roles', needs: ['roles:read', 'roles:write'] },
      { href: '/admin/audit-log', label: 'Audit log', needs: ['audit-log:read'] },
    ],
  },
  {
    label: 'Developers',
    items: [
      { href: '/admin/settings/api-keys', label: 'API keys', needs: ['api-keys:read'] },
      { href: '/admin/webhooks', label: 'Webhooks', needs: ['webhooks:read'] },
    ],
  },
];

const mayOpen = (session: AdminSession) => (item: NavItem) => item.needs.length === 0 || item.needs.some((p) => hasPermission(session.principal, p));

/** The groups and items the signed-in user may open; a group with none is left out. */
export function visibleNav(session: AdminSession): NavGroup[] {
  return NAV.map((group) => ({ ...group, items: group.items.filter(mayOpen(session)) })).filter((group) => group.items.length > 0);
}

/** The page frame: skip link, navigation, the signed-in user and sign-out, a flash message, then the page. */
export function Layout(props: { title: string; session: AdminSession; active: string; flash?: Flash | null; children: Child }) {
  const { session } = props;
  return (
    <Document title={props.title}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/admin">
          Store admin
        </a>
        <nav aria-label="Main">
          <ul>
            {visibleNav(session).map((group) => (
              <li class="group">
                {group.label ? <span class="group-label">{group.label}</span> : null}
                <ul>
                  {group.items.map((item) => (
                    <li>
                      <a href={item.href} aria-current={props.active === item.href ? 'page' : undefined}>
                        {item.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </nav>
        <form method="post" action="/admin/sign-out" class="who">
          <CsrfField token={session.csrfToken} />
          <a href="/admin/account" title={`${session.user.email}: your account`}>
            {session.user.name ?? session.user.email}
          </a>
          <span> · {session.user.vendorId ? 'vendor' : session.user.role}</span>
          <button type="submit" class="link">
            Sign out
          </button>
        </form>
      </header>
      <main id="main" tabindex={-1}>
        <h1>{props.title}</h1>
        {props.flash ? <FlashMessage flash={props.flash} /> : null}
        {props.children}
      </main>
    </Document>
  );
}

export function FlashMessage({ flash }: { flash: Flash }) {
  return (
    <p class={`flash ${flash.kind}`} role={flash.kind === 'error' ? 'alert' : 'status'}>
      {flash.text}
    </p>
  );
}

export function Document(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{props.title} · Store admin</title>
        <link rel="icon" href="/admin/assets/icon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/admin/assets/admin.css" />
        <script src="/admin/assets/admin.js" defer></script>
      </head>
      <body>{props.children}</body>
    </html>
  );
}
