// The pages. Each view is an async function of the route ({ params, query, go }) that reads what
// it needs through the client and returns the page's content; the router puts it in <main>.

import * as store from './store.js';
import { client, config, money } from './store.js';
import { announce, busy, clearFormError, errorMessage, field, fill, formValues, h, productImage, showFormError } from './ui.js';
import { NotFoundError } from './vendor/store-client.js';

const CARD_FIELDS = 'id,name,slug,price,compareAtPrice,stock,media,images,brand';
const PAGE_SIZE = 24;

const stockText = (stock, threshold = 5) => (stock <= 0 ? 'Sold out' : stock <= threshold ? `Only ${stock} left` : `${stock} in stock`);
const variantLabel = (v) => v.name || Object.values(v.options ?? {}).join(' / ') || 'Standard';
const optionsText = (options) =>
  Object.entries(options ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
const orderNumber = (order) => `#${order.number}`;
const dateText = (iso) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const STATUS_TEXT = { pending: 'Awaiting payment', processing: 'Paid, being prepared', shipped: 'Shipped', completed: 'Delivered', cancelled: 'Cancelled', refunded: 'Refunded' };

function price(product) {
  return h(
    'p',
    { class: 'price' },
    money(product.price),
    product.compareAtPrice > product.price ? [' ', h('s', { 'aria-label': `was ${money(product.compareAtPrice)}` }, money(product.compareAtPrice))] : '',
  );
}

function productCard(product) {
  return h(
    'li',
    { class: 'card' },
    h(
      'a',
      { href: `#/products/${product.slug}` },
      productImage(product),
      h('h3', {}, product.name),
      product.brand ? h('p', { class: 'muted' }, product.brand.name) : '',
      price(product),
      product.stock <= 0 ? h('p', { class: 'badge' }, 'Sold out') : '',
    ),
  );
}

const grid = (products) => h('ul', { class: 'grid', role: 'list' }, products.map(productCard));

// ---------------------------------------------------------------------------------------------
// Home: the `home-hero` banners, the top categories and the newest products.

export async function home() {
  const [banners, categories, newest] = await Promise.all([
    client.banners.list({ placement: 'home-hero', limit: 3 }),
    client.categories.list({ parent: 'root', limit: 12, fields: 'name,slug,description' }),
    client.products.list({ limit: 8, sort: 'created_at:desc', fields: CARD_FIELDS }),
  ]);
  return [
    h('h1', { class: 'visually-hidden' }, 'Store'),
    banners.data.length
      ? h(
          'section',
          { class: 'banners', 'aria-label': 'Promotions' },
          banners.data.map((b, i) => {
            const inner = [
              h('div', { class: 'banner-text' }, h('h2', {}, b.title), b.linkUrl ? h('span', { class: 'button' }, 'Shop now') : ''),
              h('img', { src: b.imageUrl, alt: b.altText ?? '', width: 480, height: 480, loading: i === 0 ? 'eager' : 'lazy' }),
            ];
            return b.linkUrl ? h('a', { class: 'banner', href: b.linkUrl.startsWith('/') ? `#${b.linkUrl}` : b.linkUrl }, inner) : h('div', { class: 'banner' }, inner);
          }),
        )
      : '',
    categories.data.length
      ? h(
          'section',
          { 'aria-labelledby': 'h-categories' },
          h('h2', { id: 'h-categories' }, 'Shop by category'),
          h(
            'ul',
            { class: 'chips', role: 'list' },
            categories.data.map((c) => h('li', {}, h('a', { href: `#/categories/${c.slug}` }, c.name))),
          ),
        )
      : '',
    h('section', { 'aria-labelledby': 'h-new' }, h('h2', { id: 'h-new' }, 'New in'), newest.data.length ? grid(newest.data) : h('p', {}, 'Nothing for sale yet.')),
  ];
}

// ---------------------------------------------------------------------------------------------
// Category and search: a product list with facets (brand, price, category) and sorting.

const SORTS = [
  ['created_at:desc', 'Newest'],
  ['price:asc', 'Price: low to high'],
  ['price:desc', 'Price: high to low'],
  ['name:asc', 'Name'],
];

export async function category({ params: [slug], query, go }) {
  const [found, children] = await Promise.all([
    client.categories.get(slug, { fields: 'id,name,slug,description' }),
    client.categories.list({ parent: slug, limit: 50, fields: 'name,slug' }),
  ]);
  return listing({ title: found.name, intro: found.description, path: `/categories/${slug}`, filter: { category: slug }, query, go, children: children.data });
}

export async function search({ query, go }) {
  const q = query.get('q') ?? '';
  document.getElementById('search').value = q;
  if (!q) return [h('h1', {}, 'Search'), h('p', {}, 'Type what you are looking for in the search box.')];
  return listing({ title: `Results for “${q}”`, path: '/search', filter: { q }, query, go, searching: true });
}

async function listing({ title, intro, path, filter, query, go, children = [], searching = false }) {
  const sort = query.get('sort') ?? (searching ? 'relevance' : 'created_at:desc');
  const brand = query.get('brand') ?? '';
  const priceRange = query.get('price') ?? '';
  const inCategory = query.get('category') ?? '';
  const page = Math.max(1, Number(query.get('page')) || 1);
  const [min, max] = priceRange.split('-');
  const {
    data,
    pagination,
    facets = {},
  } = await client.products.list({
    ...filter,
    ...(brand ? { brand } : {}),
    ...(inCategory ? { category: inCategory } : {}),
    ...(min ? { price_min: Number(min) } : {}),
    ...(max ? { price_max: Math.max(0, Number(max) - 0.01) } : {}),
    sort,
    page,
    limit: PAGE_SIZE,
    facets: searching ? 'category,brand,price' : 'brand,price',
    fields: CARD_FIELDS,
  });
  const change = (name, value) => {
    const next = new URLSearchParams(query);
    next.delete('page');
    if (value) next.set(name, value);
    else next.delete(name);
    go(path, next);
  };
  const radios = (name, legend, items, selected) =>
    h(
      'fieldset',
      { class: 'facet' },
      h('legend', {}, legend),
      [{ value: '', label: 'All' }, ...items].map((item, i) =>
        h(
          'label',
          { class: 'choice' },
          h('input', { type: 'radio', name, value: item.value, id: `facet-${name}-${i}`, checked: selected === item.value, onchange: () => change(name, item.value) }),
          ` ${item.label}`,
          item.count !== undefined ? h('span', { class: 'muted' }, ` (${item.count})`) : '',
        ),
      ),
    );
  const priceLabel = (b) => (b.max === null ? `${money(b.min)} and up` : `${money(b.min)} – ${money(b.max)}`);
  const facetForm = h(
    'form',
    { class: 'facets', 'aria-label': 'Filters', onsubmit: (e) => e.preventDefault() },
    children.length
      ? h(
          'nav',
          { 'aria-label': 'Sub-categories' },
          h('h2', {}, 'Categories'),
          h(
            'ul',
            {},
            children.map((c) => h('li', {}, h('a', { href: `#/categories/${c.slug}` }, c.name))),
          ),
        )
      : '',
    searching && facets.category?.length
      ? radios(
          'category',
          'Category',
          facets.category.map((c) => ({ value: c.slug, label: c.name, count: c.count })),
          inCategory,
        )
      : '',
    facets.brand?.length
      ? radios(
          'brand',
          'Brand',
          facets.brand.map((b) => ({ value: b.slug, label: b.name, count: b.count })),
          brand,
        )
      : '',
    facets.price?.length
      ? radios(
          'price',
          'Price',
          facets.price.map((b) => ({ value: `${b.min}-${b.max ?? ''}`, label: priceLabel(b), count: b.count })),
          priceRange,
        )
      : '',
  );
  const sorts = searching ? [['relevance', 'Best match'], ...SORTS] : SORTS;
  const pageLink = (n, label, rel) => {
    const next = new URLSearchParams(query);
    next.set('page', String(n));
    return h('a', { href: `#${path}?${next}`, rel }, label);
  };
  return [
    h('h1', {}, title),
    intro ? h('p', { class: 'intro' }, intro) : '',
    h(
      'div',
      { class: 'listing' },
      h('details', { class: 'facets-box', open: matchMedia('(min-width: 48rem)').matches }, h('summary', {}, 'Filters'), facetForm),
      h(
        'section',
        { 'aria-label': 'Products' },
        h(
          'div',
          { class: 'toolbar' },
          h('p', { class: 'muted', id: 'result-count' }, `${pagination.total} product${pagination.total === 1 ? '' : 's'}`),
          h(
            'div',
            { class: 'field inline' },
            h('label', { for: 'sort' }, 'Sort by'),
            h(
              'select',
              { id: 'sort', onchange: (e) => change('sort', e.target.value) },
              sorts.map(([value, label]) => h('option', { value, selected: value === sort }, label)),
            ),
          ),
        ),
        data.length ? grid(data) : h('p', {}, 'No products match. Try fewer filters.'),
        pagination.totalPages > 1
          ? h(
              'nav',
              { class: 'pages', 'aria-label': 'Pages' },
              pagination.hasPrev ? pageLink(page - 1, 'Previous', 'prev') : '',
              h('span', {}, `Page ${page} of ${pagination.totalPages}`),
              pagination.hasNext ? pageLink(page + 1, 'Next', 'next') : '',
            )
          : '',
      ),
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Product: pictures (uploaded to the store, served from /media), variants with their stock, add to cart.

export async function product({ params: [slug] }) {
  const p = await client.products.get(slug);
  const pictures = p.media.length ? p.media : p.images.map((img) => ({ url: img.url, alt: img.alt, width: 640, height: 640 }));
  const variants = [...p.variants].sort((a, b) => a.position - b.position);
  const firstInStock = variants.find((v) => v.stock > 0) ?? variants[0];
  const mainImage = pictures.length
    ? h('img', { class: 'img', id: 'main-image', src: pictures[0].url, alt: pictures[0].alt ?? p.name, width: pictures[0].width ?? 640, height: pictures[0].height ?? 640 })
    : productImage(p);
  const showPicture = (pic) => {
    mainImage.src = pic.url;
    mainImage.alt = pic.alt ?? p.name;
  };
  const stockLine = h('p', { class: 'stock', id: 'stock', 'aria-live': 'polite' });
  const priceLine = h('p', { class: 'price big', id: 'variant-price' });
  const quantity = h('input', { id: 'quantity', name: 'quantity', type: 'number', min: 1, value: 1, inputmode: 'numeric', required: true });
  const addButton = h('button', { type: 'submit', class: 'primary' }, 'Add to cart');
  const added = h('p', { class: 'added', id: 'added' });
  const selectVariant = (variant) => {
    fill(priceLine, money(variant.price), variant.compareAtPrice > variant.price ? [' ', h('s', {}, money(variant.compareAtPrice))] : '');
    fill(stockLine, stockText(variant.stock, variant.lowStockThreshold ?? p.lowStockThreshold ?? 5));
    stockLine.classList.toggle('out', variant.stock <= 0);
    quantity.max = String(Math.max(1, variant.stock));
    addButton.disabled = variant.stock <= 0;
    const picture = p.media.find((m) => m.variantId === variant.id);
    if (picture) showPicture(picture);
  };
  const form = h(
    'form',
    {
      class: 'buy',
      onsubmit: async (event) => {
        event.preventDefault();
        const variantId = variants.length > 1 ? new FormData(form).get('variant') : variants[0].id;
        const variant = variants.find((v) => v.id === variantId);
        clearFormError(form);
        try {
          await busy(form, () => store.addLine(variantId, Number(quantity.value) || 1));
          const text = `Added ${p.name}${variants.length > 1 ? ` (${variantLabel(variant)})` : ''} to your cart.`;
          fill(added, text, ' ', h('a', { href: '#/cart' }, 'View cart'));
          announce(text);
        } catch (error) {
          showFormError(form, error);
        }
      },
    },
    variants.length > 1
      ? h(
          'fieldset',
          { class: 'variants' },
          h('legend', {}, 'Choose an option'),
          variants.map((v, i) =>
            h(
              'label',
              { class: 'variant' },
              h('input', {
                type: 'radio',
                name: 'variant',
                value: v.id,
                id: `variant-${i}`,
                checked: v === firstInStock,
                disabled: v.stock <= 0,
                onchange: () => selectVariant(v),
              }),
              h('span', {}, variantLabel(v)),
              h('span', { class: 'muted' }, v.stock <= 0 ? 'Sold out' : money(v.price)),
            ),
          ),
        )
      : '',
    priceLine,
    stockLine,
    h('div', { class: 'field inline' }, h('label', { for: 'quantity' }, 'Quantity'), quantity),
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1' }),
    addButton,
    added,
  );
  selectVariant(firstInStock);
  return h(
    'article',
    { class: 'product' },
    h(
      'div',
      { class: 'gallery' },
      mainImage,
      pictures.length > 1
        ? h(
            'ul',
            { class: 'thumbs', role: 'list' },
            pictures.map((pic, i) =>
              h(
                'li',
                {},
                h('button', { type: 'button', 'aria-label': `Show picture ${i + 1}`, onclick: () => showPicture(pic) }, h('img', { src: pic.url, alt: '', width: 64, height: 64 })),
              ),
            ),
          )
        : '',
    ),
    h(
      'div',
      { class: 'details' },
      p.categories[0] ? h('p', { class: 'crumbs' }, h('a', { href: `#/categories/${p.categories[0].slug}` }, p.categories[0].name)) : '',
      h('h1', {}, p.name),
      p.brand ? h('p', { class: 'muted' }, p.brand.name) : '',
      form,
      p.description
        ? h(
            'div',
            { class: 'description' },
            p.description.split(/\n{2,}/).map((para) => h('p', {}, para)),
          )
        : '',
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Content pages (Markdown rendered and sanitized by the API: bodyHtml).

export async function page({ params: [slug] }) {
  const p = await client.pages.get(slug);
  const body = h('div', { class: 'prose' });
  // bodyHtml is sanitized by the API (an allowlist: no scripts, handlers or styles); the page's CSP forbids inline scripts too.
  body.innerHTML = p.bodyHtml ?? '';
  return h('article', {}, h('h1', {}, p.title), body);
}

// ---------------------------------------------------------------------------------------------
// Cart: lines, quantities, coupon, totals. The cart lives in the API; its id and token in localStorage.

function totalsTable(totals, currency, { address } = {}) {
  const row = (label, value, cls) => h('tr', { class: cls }, h('th', { scope: 'row' }, label), h('td', {}, value));
  return h(
    'table',
    { class: 'totals' },
    h('caption', { class: 'visually-hidden' }, 'Order totals'),
    h(
      'tbody',
      {},
      row('Subtotal', money(totals.subtotal, currency)),
      totals.discountTotal ? row('Discount', `−${money(totals.discountTotal, currency)}`, 'discount') : '',
      row('Shipping', address ? (totals.shippingTotal ? money(totals.shippingTotal, currency) : 'Free') : money(totals.shippingTotal, currency), 'shipping'),
      row('Tax', address ? money(totals.taxTotal, currency) : 'Calculated from your address', 'tax'),
      row('Total', money(totals.total, currency), 'grand'),
    ),
  );
}

function notices(cart) {
  return cart?.notices?.length
    ? h(
        'div',
        { class: 'notice', role: 'status' },
        cart.notices.map((n) => h('p', {}, n.message)),
      )
    : '';
}

function couponForm(cart, rerender) {
  const form = h(
    'form',
    {
      class: 'coupon',
      onsubmit: async (event) => {
        event.preventDefault();
        const { code } = formValues(form);
        if (!code) return;
        clearFormError(form);
        try {
          await busy(form, () => store.applyCoupon(code));
          announce(`Coupon ${code.toUpperCase()} applied.`);
          rerender();
        } catch (error) {
          showFormError(form, error);
        }
      },
    },
    cart.couponCode
      ? h(
          'p',
          {},
          'Coupon ',
          h('strong', {}, cart.couponCode),
          ' ',
          h(
            'button',
            {
              type: 'button',
              class: 'link',
              onclick: async () => {
                await store.removeCoupon();
                announce('Coupon removed.');
                rerender();
              },
            },
            'Remove',
          ),
        )
      : [
          h(
            'div',
            { class: 'field inline' },
            h('label', { for: 'coupon-code' }, 'Coupon code'),
            h('input', { id: 'coupon-code', name: 'code', type: 'text', autocomplete: 'off', maxlength: 64 }),
            h('button', { type: 'submit' }, 'Apply'),
          ),
        ],
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1' }),
  );
  return form;
}

export async function cart() {
  const root = h('div', { class: 'cart-page' });
  const draw = () => {
    const c = store.cart;
    if (!c?.lines.length) {
      return fill(root, h('h1', {}, 'Your cart'), h('p', {}, 'Your cart is empty.'), h('p', {}, h('a', { href: '#/' }, 'Continue shopping')));
    }
    const lines = c.lines.map((line) => {
      const qty = h('input', {
        type: 'number',
        id: `qty-${line.id}`,
        min: 0,
        max: 1000,
        value: line.quantity,
        inputmode: 'numeric',
        onchange: async (event) => {
          try {
            await store.setQuantity(line.id, Math.max(0, Number(event.target.value) || 0));
            announce('Cart updated.');
            draw();
            root.querySelector(`#qty-${CSS.escape(line.id)}`)?.focus();
          } catch (error) {
            announce(errorMessage(error));
            fill(root.querySelector('.cart-error'), errorMessage(error));
          }
        },
      });
      return h(
        'li',
        { class: 'line' },
        h(
          'div',
          {},
          h('p', { class: 'name' }, line.name),
          line.options && Object.keys(line.options).length ? h('p', { class: 'muted' }, optionsText(line.options)) : '',
          line.inStock ? '' : h('p', { class: 'out' }, 'Not enough in stock'),
        ),
        h('div', { class: 'field inline' }, h('label', { for: `qty-${line.id}` }, 'Qty'), qty),
        h('p', { class: 'amount' }, money(line.subtotal, c.currency)),
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            'aria-label': `Remove ${line.name}`,
            onclick: async () => {
              await store.removeLine(line.id);
              announce(`${line.name} removed.`);
              draw();
              root.querySelector('h1')?.focus();
            },
          },
          'Remove',
        ),
      );
    });
    return fill(
      root,
      h('h1', { tabindex: '-1' }, 'Your cart'),
      notices(c),
      h('p', { class: 'form-error cart-error', role: 'alert' }),
      h(
        'div',
        { class: 'two-col' },
        h('ul', { class: 'lines', role: 'list', 'aria-label': 'Items' }, lines),
        h(
          'aside',
          { class: 'summary', 'aria-label': 'Summary' },
          totalsTable(c.totals, c.currency, { address: c.shippingAddress }),
          couponForm(c, draw),
          h('a', { class: 'button primary', href: '#/checkout' }, 'Check out'),
          store.session
            ? ''
            : h(
                'p',
                { class: 'muted' },
                h('a', { href: '#/sign-in?next=/checkout' }, 'Sign in'),
                ' or ',
                h('a', { href: '#/sign-up?next=/checkout' }, 'create an account'),
                ': your cart comes along.',
              ),
        ),
      ),
    );
  };
  return draw();
}

// ---------------------------------------------------------------------------------------------
// Checkout: contact, shipping address (saved ones for customers), the quote (shipping and tax of that
// address, coupon), payment method, place the order.

const COUNTRIES = [
  ['US', 'United States'],
  ['CA', 'Canada'],
  ['GB', 'United Kingdom'],
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['NL', 'Netherlands'],
  ['JP', 'Japan'],
  ['AU', 'Australia'],
];
const ADDRESS_FIELDS = ['firstName', 'lastName', 'line1', 'line2', 'city', 'region', 'postalCode', 'country', 'phone'];
const addressText = (a) =>
  [[a.firstName, a.lastName].filter(Boolean).join(' '), a.line1, a.line2, [a.postalCode, a.city, a.region].filter(Boolean).join(' '), a.country].filter(Boolean).join(', ');
const pickAddress = (a) => Object.fromEntries(ADDRESS_FIELDS.filter((k) => a[k] !== undefined && a[k] !== null && a[k] !== '').map((k) => [k, a[k]]));
const sameAddress = (a, b) => a && b && ADDRESS_FIELDS.every((k) => (a[k] ?? null) === (b[k] ?? null));

export async function checkout({ go }) {
  await store.loadCart();
  if (!store.cart?.lines.length) return [h('h1', {}, 'Checkout'), h('p', {}, 'Your cart is empty. ', h('a', { href: '#/' }, 'Continue shopping'))];
  const me = store.session ? await store.guarded(client.auth.me()) : null;
  const saved = me?.addresses ?? [];
  const root = h('div', { class: 'checkout' });
  let method = 'manual';
  const cardPossible = Boolean(config.stripePublishableKey) && Boolean(store.session);

  const draw = () => {
    const c = store.cart;
    const current = c.shippingAddress;
    const chosen = saved.find((a) => sameAddress(pickAddress(a), pickAddress(current ?? {})));
    const addressForm = h(
      'form',
      {
        id: 'address-form',
        'aria-labelledby': 'h-address',
        onsubmit: async (event) => {
          event.preventDefault();
          const values = formValues(addressForm);
          clearFormError(addressForm);
          try {
            await busy(addressForm, async () => {
              let address;
              if (values.saved && values.saved !== 'new') address = pickAddress(saved.find((a) => a.id === values.saved));
              else {
                address = pickAddress(values);
                if (values.save === 'on' && store.session) {
                  const created = await store.guarded(client.customers.addresses.create('me', { ...address, isDefaultShipping: saved.length === 0 }));
                  saved.push(created);
                }
              }
              await store.updateCart({ ...(store.session ? {} : { email: values.email }), shippingAddress: address });
            });
            announce(
              `Shipping ${money(store.cart.totals.shippingTotal, store.cart.currency)}, tax ${money(store.cart.totals.taxTotal, store.cart.currency)}, total ${money(store.cart.totals.total, store.cart.currency)}.`,
            );
            draw();
            root.querySelector('#h-payment')?.focus();
          } catch (error) {
            showFormError(addressForm, error);
          }
        },
      },
      h('h2', { id: 'h-address' }, '1. Contact and shipping'),
      store.session
        ? h('p', {}, 'Signed in as ', h('strong', {}, store.session.user.email))
        : [
            h(
              'p',
              { class: 'muted' },
              h('a', { href: '#/sign-in?next=/checkout' }, 'Sign in'),
              ' or ',
              h('a', { href: '#/sign-up?next=/checkout' }, 'create an account'),
              ' to use saved addresses; your cart comes along.',
            ),
            field('Email', { name: 'email', type: 'email', autocomplete: 'email', required: true, value: c.email ?? '' }, 'For the order confirmation.'),
          ],
      saved.length
        ? h(
            'fieldset',
            { class: 'saved' },
            h('legend', {}, 'Ship to'),
            saved.map((a) =>
              h(
                'label',
                { class: 'choice' },
                h('input', { type: 'radio', name: 'saved', value: a.id, checked: chosen?.id === a.id || (!chosen && !current && a.isDefaultShipping) }),
                ` ${addressText(a)}`,
              ),
            ),
            h(
              'label',
              { class: 'choice' },
              h('input', { type: 'radio', name: 'saved', value: 'new', checked: !saved.some((a) => chosen?.id === a.id || (!chosen && !current && a.isDefaultShipping)) }),
              ' A new address',
            ),
          )
        : '',
      h(
        'fieldset',
        { class: 'address' },
        h('legend', {}, saved.length ? 'New address' : 'Shipping address'),
        h(
          'div',
          { class: 'row' },
          field('First name', { name: 'firstName', autocomplete: 'given-name', required: true, value: current?.firstName ?? me?.name?.split(' ')[0] ?? '' }),
          field('Last name', { name: 'lastName', autocomplete: 'family-name', required: true, value: current?.lastName ?? '' }),
        ),
        field('Address', { name: 'line1', autocomplete: 'address-line1', required: true, value: current?.line1 ?? '' }),
        field('Apartment, suite', { name: 'line2', autocomplete: 'address-line2', value: current?.line2 ?? '' }),
        h(
          'div',
          { class: 'row' },
          field('City', { name: 'city', autocomplete: 'address-level2', required: true, value: current?.city ?? '' }),
          field('State or region', { name: 'region', autocomplete: 'address-level1', value: current?.region ?? '' }, 'For example NY'),
        ),
        h(
          'div',
          { class: 'row' },
          field('Postal code', { name: 'postalCode', autocomplete: 'postal-code', value: current?.postalCode ?? '' }),
          field('Country', {
            tag: 'select',
            name: 'country',
            autocomplete: 'country',
            required: true,
            options: COUNTRIES.map(([code, name]) => h('option', { value: code, selected: (current?.country ?? 'US') === code }, name)),
          }),
        ),
        store.session ? h('label', { class: 'choice' }, h('input', { type: 'checkbox', name: 'save', checked: !saved.length }), ' Save this address to my account') : '',
      ),
      h('p', { class: 'form-error', role: 'alert', tabindex: '-1' }),
      h('button', { type: 'submit' }, current ? 'Update shipping and tax' : 'Continue: see shipping and tax'),
    );
    // A saved address chosen: its fields are not needed (nor required).
    const toggleNew = () => {
      const useNew = !saved.length || addressForm.querySelector('input[name=saved]:checked')?.value === 'new';
      const box = addressForm.querySelector('fieldset.address');
      box.hidden = !useNew;
      box.querySelectorAll('input, select').forEach((el) => (el.disabled = !useNew));
    };
    addressForm.addEventListener('change', (e) => e.target.name === 'saved' && toggleNew());
    toggleNew();

    const payForm = h(
      'form',
      {
        id: 'pay-form',
        'aria-labelledby': 'h-payment',
        onsubmit: async (event) => {
          event.preventDefault();
          clearFormError(payForm);
          try {
            const order = await busy(payForm, () => store.checkout({}));
            announce(`Order ${orderNumber(order)} placed.`);
            go(`/orders/${order.id}/confirmation`, new URLSearchParams(method === 'card' ? { pay: 'card' } : {}));
          } catch (error) {
            showFormError(payForm, error);
          }
        },
      },
      h('h2', { id: 'h-payment', tabindex: '-1' }, '2. Payment'),
      h(
        'fieldset',
        {},
        h('legend', {}, 'How would you like to pay?'),
        h(
          'label',
          { class: 'choice' },
          h('input', { type: 'radio', name: 'method', value: 'manual', checked: true, onchange: () => (method = 'manual') }),
          ' Bank transfer',
          h('span', { class: 'muted block' }, 'Pay after placing the order, quoting its number; we ship once the money arrives.'),
        ),
        cardPossible
          ? h(
              'label',
              { class: 'choice' },
              h('input', { type: 'radio', name: 'method', value: 'card', onchange: () => (method = 'card') }),
              ' Card',
              h('span', { class: 'muted block' }, 'Paid securely with Stripe on the next page.'),
            )
          : '',
      ),
      h('p', { class: 'form-error', role: 'alert', tabindex: '-1' }),
      h('button', { type: 'submit', class: 'primary' }, `Place order · ${money(c.totals.total, c.currency)}`),
    );

    return fill(
      root,
      h('h1', {}, 'Checkout'),
      notices(c),
      h(
        'div',
        { class: 'two-col' },
        h(
          'div',
          {},
          addressForm,
          current ? payForm : h('section', { class: 'disabled' }, h('h2', {}, '2. Payment'), h('p', { class: 'muted' }, 'Enter your address to see shipping and tax.')),
        ),
        h(
          'aside',
          { class: 'summary', 'aria-labelledby': 'h-summary' },
          h('h2', { id: 'h-summary' }, 'Your order'),
          h(
            'ul',
            { class: 'mini-lines', role: 'list' },
            c.lines.map((l) =>
              h(
                'li',
                {},
                h('span', {}, `${l.quantity} × ${l.name}`, Object.keys(l.options ?? {}).length ? h('span', { class: 'muted block' }, optionsText(l.options)) : ''),
                h('span', {}, money(l.subtotal, c.currency)),
              ),
            ),
          ),
          totalsTable(c.totals, c.currency, { address: current }),
          current ? h('p', { class: 'muted' }, `Shipping to ${addressText(current)}`) : '',
          couponForm(c, draw),
        ),
      ),
    );
  };
  return draw();
}

// ---------------------------------------------------------------------------------------------
// Confirmation: the order number, what happens next, and (card) the Stripe payment.

async function readOrder(id) {
  if (store.session) return store.guarded(client.orders.get(id));
  const kept = store.lastOrder();
  if (kept && (kept.id === id || String(kept.number) === id)) return kept;
  throw new NotFoundError({ code: 'NOT_FOUND', status: 404, message: 'This order is not in this browser. Sign in to see your orders.', details: null, requestId: null });
}

function orderDetails(order) {
  return [
    h(
      'ul',
      { class: 'mini-lines', role: 'list' },
      order.lines.map((l) =>
        h(
          'li',
          {},
          h('span', {}, `${l.quantity} × ${l.name}`, Object.keys(l.options ?? {}).length ? h('span', { class: 'muted block' }, optionsText(l.options)) : ''),
          h('span', {}, money(l.subtotal, order.currency)),
        ),
      ),
    ),
    totalsTable(
      { subtotal: order.subtotal, discountTotal: order.discountTotal, shippingTotal: order.shippingTotal, taxTotal: order.taxTotal, total: order.total },
      order.currency,
      { address: order.shippingAddress },
    ),
    order.shippingAddress ? h('p', {}, 'Shipping to ', addressText(order.shippingAddress)) : '',
  ];
}

export async function confirmation({ params: [id], query }) {
  const order = await readOrder(id);
  const paid = order.paymentStatus === 'paid';
  return [
    h('h1', {}, 'Thank you!'),
    h('p', { class: 'order-number' }, 'Your order number is ', h('strong', { id: 'order-number' }, orderNumber(order))),
    h('p', {}, `A confirmation is on its way to ${order.email}.`),
    paid
      ? h('p', { class: 'ok' }, 'Paid. We are preparing your order.')
      : query.get('pay') === 'card'
        ? cardPayment(order)
        : h(
            'section',
            { class: 'notice', 'aria-labelledby': 'h-pay' },
            h('h2', { id: 'h-pay' }, 'Paying by bank transfer'),
            h('p', {}, `Transfer ${money(order.amountDue, order.currency)} quoting `, h('strong', {}, orderNumber(order)), '. We ship once the money arrives.'),
          ),
    h('section', { 'aria-labelledby': 'h-details' }, h('h2', { id: 'h-details' }, 'Order details'), orderDetails(order)),
    h('p', {}, store.session ? h('a', { href: '#/account' }, 'Your orders') : h('a', { href: '#/' }, 'Continue shopping')),
  ];
}

/**
 * Card payment with Stripe Elements: the API starts the payment (a PaymentIntent) and answers its
 * client secret; Stripe.js (loaded from js.stripe.com) collects the card and confirms it; Stripe's
 * webhook then marks the order paid. Needs `stripePublishableKey` in config.js and the store's Stripe keys.
 */
function cardPayment(order) {
  const box = h('section', { class: 'notice', 'aria-labelledby': 'h-card' }, h('h2', { id: 'h-card' }, 'Pay by card'), h('p', { class: 'muted' }, 'Loading the secure card form…'));
  (async () => {
    try {
      const payment = await store.guarded(client.orders.payments.create(order.id, { provider: 'stripe' }, { idempotencyKey: `card-${order.id}` }));
      await new Promise((resolve, reject) => {
        if (window.Stripe) return resolve();
        document.head.append(
          h('script', {
            src: 'https://js.stripe.com/v3/',
            onload: resolve,
            onerror: () => reject(new Error('Stripe.js could not be loaded, so card payment is not available here. Please pay by bank transfer.')),
          }),
        );
      });
      const stripe = window.Stripe(config.stripePublishableKey);
      const elements = stripe.elements({ clientSecret: payment.clientSecret });
      const mount = h('div', { id: 'payment-element' });
      const message = h('p', { class: 'form-error', role: 'alert' });
      const form = h(
        'form',
        {
          onsubmit: async (event) => {
            event.preventDefault();
            await busy(form, async () => {
              const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: `${location.origin}/#/account/orders/${order.number}` } });
              if (error) fill(message, error.message);
            });
          },
        },
        mount,
        message,
        h('button', { type: 'submit', class: 'primary' }, `Pay ${money(order.amountDue, order.currency)}`),
      );
      fill(box, h('h2', { id: 'h-card' }, 'Pay by card'), form);
      elements.create('payment').mount(mount);
    } catch (error) {
      fill(box, h('h2', { id: 'h-card' }, 'Pay by card'), h('p', { class: 'form-error' }, errorMessage(error)));
    }
  })();
  return box;
}

// ---------------------------------------------------------------------------------------------
// Sign in and sign up: the guest cart comes along (the cartToken of login and register).

function authForm({ title, submitLabel, fields, action, other, next, go }) {
  const form = h(
    'form',
    {
      class: 'auth',
      onsubmit: async (event) => {
        event.preventDefault();
        clearFormError(form);
        try {
          const values = Object.fromEntries(new FormData(form));
          await busy(form, () => action(values));
          announce('Signed in.');
          go(next);
        } catch (error) {
          showFormError(form, error);
        }
      },
    },
    h('h1', {}, title),
    h('p', { class: 'form-error', role: 'alert', tabindex: '-1' }),
    fields,
    h('button', { type: 'submit', class: 'primary' }, submitLabel),
    h('p', {}, other),
  );
  return form;
}

const safeNext = (query) => {
  const next = query.get('next') ?? '/account';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/account';
};

export async function signIn({ query, go }) {
  const next = safeNext(query);
  return authForm({
    title: 'Sign in',
    submitLabel: 'Sign in',
    next,
    go,
    action: ({ email, password }) => store.signIn({ email, password }),
    fields: [
      field('Email', { name: 'email', type: 'email', autocomplete: 'email', required: true }),
      field('Password', { name: 'password', type: 'password', autocomplete: 'current-password', required: true }),
    ],
    other: ['New here? ', h('a', { href: `#/sign-up?next=${encodeURIComponent(next)}` }, 'Create an account'), store.cartCount() ? ' (your cart comes along)' : ''],
  });
}

export async function signUp({ query, go }) {
  const next = safeNext(query);
  return authForm({
    title: 'Create an account',
    submitLabel: 'Create account',
    next,
    go,
    action: ({ name, email, password }) => store.signUp({ name: name.trim() || undefined, email, password }),
    fields: [
      field('Name', { name: 'name', autocomplete: 'name', required: true }),
      field('Email', { name: 'email', type: 'email', autocomplete: 'email', required: true }),
      field('Password', { name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8 }, 'At least 8 characters.'),
    ],
    other: ['Have an account? ', h('a', { href: `#/sign-in?next=${encodeURIComponent(next)}` }, 'Sign in')],
  });
}

// ---------------------------------------------------------------------------------------------
// Account: orders and saved addresses.

export async function account({ go }) {
  if (!store.session) {
    go('/sign-in', new URLSearchParams({ next: '/account' }));
    return h('p', {}, 'Redirecting to sign in…');
  }
  const [me, orders] = await store.guarded(Promise.all([client.auth.me(), client.orders.list({ sort: 'created_at:desc', limit: 20 })]));
  return [
    h('h1', {}, 'Your account'),
    h(
      'p',
      {},
      me.name ? `${me.name} · ` : '',
      me.email,
      ' ',
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          onclick: () => {
            store.signOut();
            announce('Signed out.');
            go('/');
          },
        },
        'Sign out',
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'h-orders' },
      h('h2', { id: 'h-orders' }, 'Orders'),
      orders.data.length
        ? h(
            'table',
            { class: 'orders' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Order', 'Placed', 'Status', 'Payment', 'Total'].map((t) => h('th', { scope: 'col' }, t)),
              ),
            ),
            h(
              'tbody',
              {},
              orders.data.map((o) =>
                h(
                  'tr',
                  {},
                  h('td', {}, h('a', { href: `#/account/orders/${o.number}` }, orderNumber(o))),
                  h('td', {}, dateText(o.createdAt)),
                  h('td', {}, STATUS_TEXT[o.status] ?? o.status),
                  h('td', {}, o.paymentStatus.replace('_', ' ')),
                  h('td', {}, money(o.total, o.currency)),
                ),
              ),
            ),
          )
        : h('p', {}, 'No orders yet.'),
    ),
    h(
      'section',
      { 'aria-labelledby': 'h-addresses' },
      h('h2', { id: 'h-addresses' }, 'Saved addresses'),
      me.addresses.length
        ? h(
            'ul',
            {},
            me.addresses.map((a) => h('li', {}, addressText(a), a.isDefaultShipping ? h('span', { class: 'muted' }, ' (default)') : '')),
          )
        : h('p', {}, 'Addresses saved at checkout show here.'),
    ),
  ];
}

export async function accountOrder({ params: [id], go }) {
  if (!store.session) {
    go('/sign-in', new URLSearchParams({ next: `/account/orders/${id}` }));
    return h('p', {}, 'Redirecting to sign in…');
  }
  const order = await store.guarded(client.orders.get(id));
  return [
    h('p', { class: 'crumbs' }, h('a', { href: '#/account' }, 'Your account')),
    h('h1', {}, `Order ${orderNumber(order)}`),
    h('p', {}, `Placed ${dateText(order.createdAt)} · `, h('strong', {}, STATUS_TEXT[order.status] ?? order.status), ` · payment ${order.paymentStatus.replace('_', ' ')}`),
    orderDetails(order),
    order.history?.length
      ? h(
          'section',
          { 'aria-labelledby': 'h-history' },
          h('h2', { id: 'h-history' }, 'History'),
          h(
            'ol',
            {},
            order.history.map((e) => h('li', {}, `${dateText(e.createdAt)}: ${STATUS_TEXT[e.toStatus] ?? e.toStatus ?? ''}`)),
          ),
        )
      : '',
  ];
}

// ---------------------------------------------------------------------------------------------

export function notFound(message = 'There is nothing here.') {
  return [h('h1', {}, 'Not found'), h('p', {}, message, ' ', h('a', { href: '#/' }, 'Go to the home page'))];
}

export function failure(error) {
  if (error instanceof NotFoundError) return notFound(error.message);
  return [
    h('h1', {}, 'Something went wrong'),
    h('p', { class: 'form-error' }, errorMessage(error)),
    h('p', {}, h('button', { type: 'button', onclick: () => location.reload() }, 'Try again')),
  ];
}
