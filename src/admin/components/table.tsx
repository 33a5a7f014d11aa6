import type { Child } from 'hono/jsx';
import type { Pagination } from '../../lib/envelope';

/** A table that scrolls sideways on a phone instead of squeezing its columns. */
export function Table(props: { caption: string; head: string[]; children: Child; empty?: string; count: number }) {
  if (props.count === 0) return <p class="empty">{props.empty ?? 'Nothing here yet.'}</p>;
  return (
    <div class="table-wrap" tabindex={0} role="region" aria-label={props.caption}>
      <table>
        <caption class="sr-only">{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((h) => (
              <th scope="col">{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** Previous / next links keeping every other query parameter, and where we are. */
export function Pager({ page, url }: { page: Pagination; url: string }) {
  const at = (n: number) => {
    const u = new URL(url);
    u.searchParams.set('page', String(n));
    return `${u.pathname}${u.search}`;
  };
  return (
    <nav class="pager" aria-label="Pagination">
      {page.hasPrev ? (
        <a href={at(page.page - 1)} rel="prev">
          ← Previous
        </a>
      ) : (
        <span aria-hidden="true">← Previous</span>
      )}
      <span>
        Page {page.page} of {Math.max(page.totalPages, 1)} · {page.total} in all
      </span>
      {page.hasNext ? (
        <a href={at(page.page + 1)} rel="next">
          Next →
        </a>
      ) : (
        <span aria-hidden="true">Next →</span>
      )}
    </nav>
  );
}

/** A GET form of filters above a list; empty fields are dropped by the list parser. */
/** A list's filter form; with `exportTo` (the API list, `orders`), a button downloads every matching row as CSV (src/admin/routes/export.ts). */
export function Filters(props: { action: string; children: Child; exportTo?: string }) {
  return (
    <form method="get" action={props.action} class="filters" role="search">
      {props.children}
      <button type="submit" class="secondary">
        Filter
      </button>
      {props.exportTo ? (
        <button type="submit" class="secondary" formaction={`/admin/export/${props.exportTo}`}>
          Export CSV
        </button>
      ) : null}
      <a href={props.action}>Clear</a>
    </form>
  );
}

/** The options of a filter on a boolean `active` (the API's `active=true|false`). */
export const ACTIVE_OPTIONS: [string, string][] = [
  ['true', 'Active'],
  ['false', 'Inactive'],
];

export const Badge = ({ value }: { value: string }) => <span class={`badge b-${value}`}>{value.replace(/_/g, ' ')}</span>;

export const when = (iso: string | null | undefined) => (iso ? <time datetime={iso}>{iso.slice(0, 16).replace('T', ' ')}</time> : '—');

/** A figure on a card, with a link to what it counts. */
export function Stat(props: { label: string; value: string; href?: string }) {
  return (
    <div class="card">
      <div class="muted">{props.label}</div>
      <div class="stat">{props.value}</div>
      {props.href ? <a href={props.href}>View</a> : null}
    </div>
  );
}
