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

const NAV: NavItem[] = [
  { href: '/admin', label: 'Dashboard', needs: [] },
  { href: '/admin/products', label: 'Products', needs: ['products:read', 'products:write'] },
  { href: '/admin/orders', label: 'Orders', needs: ['orders:read', 'orders:write'] },
  { href: '/admin/customers', label: 'Customers', needs: ['customers:read', 'customers:write'] },
  { href: '/admin/coupons', label: 'Coupons', needs: ['coupons:read'] },
  { href: '/admin/webhooks', label: 'Webhooks', needs: ['webhooks:read'] },
  { href: '/admin/settings', label: 'Settings', needs: ['settings:read'] },
  { href: '/admin/settings/api-keys', label: 'API keys', needs: ['api-keys:read'] },
];

export function visibleNav(session: AdminSession): NavItem[] {
  return NAV.filter((item) => item.needs.length === 0 || item.needs.some((p) => hasPermission(session.principal, p)));
}

/** The page frame: skip link, navigation, the signed-in user and sign-out, a flash message, then the page. */
export function Layout(props: { title: string; session: AdminSession; active: string; flash?: Flash | null; children: Child }) {
  const { session } = props;
  return (
    <Document title={props.title}>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <a class="brand" href="/admin">Store admin</a>
        <nav aria-label="Main">
          <ul>
            {visibleNav(session).map((item) => (
              <li>
                <a href={item.href} aria-current={props.active === item.href ? 'page' : undefined}>{item.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <form method="post" action="/admin/sign-out" class="who">
          <CsrfField token={session.csrfToken} />
          <span title={session.user.email}>{session.user.name ?? session.user.email} · {session.user.vendorId ? 'vendor' : session.user.role}</span>
          <button type="submit" class="link">Sign out</button>
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
        <link rel="stylesheet" href="/admin/assets/admin.css" />
        <script src="/admin/assets/admin.js" defer></script>
      </head>
      <body>{props.children}</body>
    </html>
  );
}
