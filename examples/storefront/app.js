// The storefront's shell: the header (menu from the content API, search with suggestions, account
// and cart links), a hash router (`#/categories/t-shirts?sort=price`), and focus moved to each new
// page's heading so keyboard and screen-reader users land on it.

import * as store from './store.js';
import { client } from './store.js';
import { announce, errorMessage, fill, h } from './ui.js';
import * as views from './views.js';

const routes = [
  [/^\/$/, views.home],
  [/^\/categories\/([^/]+)$/, views.category],
  [/^\/search$/, views.search],
  [/^\/products\/([^/]+)$/, views.product],
  [/^\/pages\/([^/]+)$/, views.page],
  [/^\/cart$/, views.cart],
  [/^\/checkout$/, views.checkout],
  [/^\/orders\/([^/]+)\/confirmation$/, views.confirmation],
  [/^\/sign-in$/, views.signIn],
  [/^\/sign-up$/, views.signUp],
  [/^\/account$/, views.account],
  [/^\/account\/orders\/([^/]+)$/, views.accountOrder],
];

/** The current route: `{ path, query }` from `#/path?query`. */
export function current() {
  const raw = location.hash.startsWith('#/') ? location.hash.slice(1) : '/';
  const [path, search = ''] = raw.split('?');
  return { path: decodeURI(path), query: new URLSearchParams(search) };
}

/** Goes to `#path` (with `query` when given). */
export function go(path, query) {
  const qs = query ? new URLSearchParams([...query].filter(([, v]) => v !== '')).toString() : '';
  location.hash = `#${path}${qs ? `?${qs}` : ''}`;
}

let rendering = 0;
let lastPath;
async function render() {
  const { path, query } = current();
  // A filter or sort changed on the same page: focus stays on the control that changed it.
  const samePage = path === lastPath;
  const focusedId = samePage ? document.activeElement?.id : undefined;
  lastPath = path;
  const found = routes.find(([pattern]) => pattern.test(path));
  const main = document.getElementById('main');
  const ticket = ++rendering;
  main.setAttribute('aria-busy', 'true');
  try {
    const content = found ? await found[1]({ params: path.match(found[0]).slice(1).map(decodeURIComponent), query, go }) : views.notFound();
    if (ticket !== rendering) return; // a newer navigation won
    fill(main, content);
  } catch (error) {
    if (ticket !== rendering) return;
    fill(main, views.failure(error));
  } finally {
    if (ticket === rendering) main.removeAttribute('aria-busy');
  }
  if (ticket !== rendering) return;
  const heading = main.querySelector('h1');
  document.title = titleOf(heading, path);
  if (samePage && focusedId && document.getElementById(focusedId)) {
    document.getElementById(focusedId).focus({ preventScroll: true });
  } else if (navigatedByUser) {
    heading?.setAttribute('tabindex', '-1');
    (heading ?? main).focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }
  navigatedByUser = true;
}
let navigatedByUser = false;

function renderHeader() {
  const count = store.cartCount();
  const badge = document.getElementById('cart-count');
  badge.textContent = String(count);
  badge.setAttribute('aria-label', `${count} item${count === 1 ? '' : 's'}`);
  const account = document.getElementById('account-link');
  if (store.session) {
    account.textContent = store.session.user.name ? `Hi, ${store.session.user.name.split(' ')[0]}` : 'Your account';
    account.href = '#/account';
  } else {
    account.textContent = 'Sign in';
    account.href = '#/sign-in';
  }
}

/** A page's title: its heading, then the store's name; the home page's is the name alone. */
const titleOf = (heading, path) => (heading && path !== '/' ? `${heading.textContent} · ${storeName}` : storeName);

/** The store's name (`GET /api`), in the header and every page's title; "Store" until it is known. */
let storeName = 'Store';
async function renderStoreName() {
  try {
    const res = await fetch(`${store.config.apiUrl}/api`);
    const name = (await res.json()).data?.store?.name;
    if (!name) return;
    storeName = name;
    document.querySelector('header .brand').textContent = name;
    document.title = titleOf(document.querySelector('#main h1'), current().path);
  } catch (error) {
    console.warn('store name not loaded:', errorMessage(error));
  }
}

/** A menu item's link: storefront paths of the content API (`/categories/x`) become routes. */
function menuLink(item) {
  const url = item.url ?? '#';
  const internal = url.startsWith('/');
  return h('a', { href: internal ? `#${url}` : url, ...(internal ? {} : { rel: 'noopener' }) }, item.label);
}

async function renderMenus() {
  const mainMenu = document.getElementById('main-menu');
  const footerMenu = document.getElementById('footer-menu');
  try {
    const { data: menus } = await client.menus.list({ limit: 20 });
    const byHandle = Object.fromEntries(menus.map((m) => [m.handle, m]));
    const main = byHandle.main;
    if (main?.items.length)
      fill(
        mainMenu,
        main.items.map((item) => h('li', {}, menuLink(item))),
      );
    else {
      // No `main` menu yet: the top categories.
      const { data: top } = await client.categories.list({ parent: 'root', limit: 12, sort: 'position', fields: 'name,slug' });
      fill(
        mainMenu,
        top.map((c) => h('li', {}, h('a', { href: `#/categories/${c.slug}` }, c.name))),
      );
    }
    if (byHandle.footer?.items.length)
      fill(
        footerMenu,
        byHandle.footer.items.map((item) => h('li', {}, menuLink(item))),
      );
  } catch (error) {
    console.warn('menus not loaded:', errorMessage(error));
  }
}

/** The search box: suggestions (products and categories) as an ARIA combobox, Enter searches. */
function setUpSearch() {
  const form = document.getElementById('search-form');
  const input = document.getElementById('search');
  const list = document.getElementById('suggestions');
  let timer;
  let asked = '';
  let active = -1;
  const options = () => [...list.querySelectorAll('[role=option]')];
  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const highlight = (i) => {
    const all = options();
    all.forEach((o, n) => o.setAttribute('aria-selected', String(n === i)));
    active = i;
    if (all[i]) input.setAttribute('aria-activedescendant', all[i].id);
    else input.removeAttribute('aria-activedescendant');
  };
  const choose = (option) => {
    close();
    input.value = option.dataset.label;
    location.hash = option.dataset.href;
  };
  async function suggest() {
    const q = input.value.trim();
    if (q.length < 2) return close();
    if (q === asked) return;
    asked = q;
    try {
      const { products, categories } = await client.products.suggest({ q });
      if (input.value.trim() !== q) return;
      const item = (kind, s, i) =>
        h(
          'li',
          {
            role: 'option',
            id: `suggestion-${kind}-${i}`,
            'aria-selected': 'false',
            dataset: { href: kind === 'category' ? `#/categories/${s.slug}` : `#/products/${s.slug}`, label: s.name },
            onmousedown: (event) => event.preventDefault(),
            onclick: (event) => choose(event.currentTarget),
          },
          s.name,
          kind === 'category' ? h('span', { class: 'kind' }, ' in categories') : '',
        );
      const all = [...products.slice(0, 6).map((s, i) => item('product', s, i)), ...categories.slice(0, 4).map((s, i) => item('category', s, i))];
      fill(list, all.length ? all : h('li', { class: 'none', role: 'option', 'aria-disabled': 'true', id: 'suggestion-none' }, 'No suggestions'));
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
      active = -1;
    } catch (error) {
      console.warn('suggestions not loaded:', errorMessage(error));
    }
  }
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(suggest, 150);
  });
  input.addEventListener('keydown', (event) => {
    const all = options().filter((o) => o.dataset.href);
    if (event.key === 'ArrowDown' && all.length) {
      event.preventDefault();
      if (list.hidden) {
        list.hidden = false;
        input.setAttribute('aria-expanded', 'true');
      }
      highlight((active + 1) % all.length);
    } else if (event.key === 'ArrowUp' && all.length) {
      event.preventDefault();
      highlight(active <= 0 ? all.length - 1 : active - 1);
    } else if (event.key === 'Escape') {
      close();
    } else if (event.key === 'Enter' && active >= 0 && all[active]) {
      event.preventDefault();
      choose(all[active]);
    }
  });
  input.addEventListener('blur', () => setTimeout(close, 100));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    close();
    const q = input.value.trim();
    if (q) go('/search', new URLSearchParams({ q }));
  });
}

document.addEventListener('click', (event) => {
  const skip = event.target.closest('[data-skip]');
  if (!skip) return;
  event.preventDefault();
  document.getElementById('main').focus();
});

store.onChange(renderHeader);
window.addEventListener('hashchange', () => {
  if (location.hash.startsWith('#/') || location.hash === '') render();
});

setUpSearch();
renderHeader();
renderMenus();
renderStoreName();
await store.boot().catch((error) => announce(errorMessage(error)));
renderHeader();
await render();
document.documentElement.dataset.ready = 'true';
