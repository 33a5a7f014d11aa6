// Small DOM helpers: elements built from data (never HTML strings, so nothing the API returns can
// run as markup), messages for errors, and the live region that announces changes.

import { StoreApiError, StoreConnectionError, ValidationError } from './vendor/store-client.js';

/** `h('a', { href: '#/cart', class: 'x' }, 'text', child)`: an element; `on*` attributes are listeners. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'class') el.className = value;
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Announces a short message to screen readers (and shows it in the status bar). */
export function announce(text) {
  const region = document.getElementById('status');
  region.textContent = '';
  // A new text node after a tick is announced even when the text repeats.
  clearTimeout(announce.timer);
  setTimeout(() => {
    region.textContent = text;
  }, 30);
  announce.timer = setTimeout(() => {
    region.textContent = '';
  }, 5000);
}

/** What to tell the shopper about a failed call. */
export function errorMessage(error) {
  if (error instanceof StoreConnectionError) return 'The store could not be reached. Check your connection and try again.';
  if (error instanceof StoreApiError) {
    if (error.status === 429) return 'The store is busy. Please try again in a moment.';
    return error.message;
  }
  return error?.message ?? String(error);
}

/**
 * Shows a failed form submission: the message at the top of the form, and each field of a 422 next
 * to its input (linked with aria-describedby), focusing the first bad field.
 */
export function showFormError(form, error) {
  form.querySelectorAll('.field-error').forEach((el) => el.remove());
  form.querySelectorAll('[aria-invalid]').forEach((el) => {
    el.removeAttribute('aria-invalid');
    el.removeAttribute('aria-describedby');
  });
  const box = form.querySelector('.form-error');
  let first;
  if (error instanceof ValidationError && Array.isArray(error.details)) {
    for (const { field, message } of error.details) {
      const name = String(field ?? '')
        .split('.')
        .pop();
      const input = name ? form.querySelector(`[name="${CSS.escape(name)}"]`) : null;
      if (!input) continue;
      const id = `${input.id || name}-error`;
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', id);
      input.closest('.field')?.append(h('p', { class: 'field-error', id }, message));
      first ??= input;
    }
  }
  if (box) fill(box, errorMessage(error));
  (first ?? box)?.focus();
}

export function clearFormError(form) {
  form.querySelectorAll('.field-error').forEach((el) => el.remove());
  form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
  const box = form.querySelector('.form-error');
  if (box) box.textContent = '';
}

/** A labelled input: `field('Email', { name: 'email', type: 'email', required: true })`. */
export function field(label, attrs, hint) {
  const id = attrs.id ?? `f-${attrs.name}`;
  const hintId = hint ? `${id}-hint` : undefined;
  const control =
    attrs.tag === 'select'
      ? h('select', { ...attrs, tag: undefined, options: undefined, id, 'aria-describedby': hintId }, attrs.options)
      : h('input', { type: 'text', ...attrs, id, 'aria-describedby': hintId });
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label, attrs.required ? '' : h('span', { class: 'optional' }, ' (optional)')),
    control,
    hint && h('p', { class: 'hint', id: hintId }, hint),
  );
}

/** A form's fields as an object of trimmed strings (empty ones left out). */
export function formValues(form) {
  const values = {};
  for (const [name, value] of new FormData(form)) {
    const text = String(value).trim();
    if (text !== '') values[name] = text;
  }
  return values;
}

/** Disables a form's buttons while `work` runs, so a double click sends nothing twice. */
export async function busy(form, work) {
  const buttons = [...form.querySelectorAll('button')];
  buttons.forEach((b) => (b.disabled = true));
  form.setAttribute('aria-busy', 'true');
  try {
    return await work();
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    form.removeAttribute('aria-busy');
  }
}

/** A product's first picture: an uploaded image (with its size, so nothing moves when it loads) or an external one. */
export function productImage(product, { size = 320, eager = false } = {}) {
  const media = product.media?.[0];
  const external = product.images?.[0];
  const src = media?.url ?? external?.url;
  const placeholder = () => h('div', { class: 'img placeholder', role: 'img', 'aria-label': product.name }, product.name.slice(0, 1));
  if (!src) return placeholder();
  return h('img', {
    // A picture hosted elsewhere that does not load (the demo catalogue's example.com ones) gives way to the placeholder, in the same box.
    onerror: (event) => event.currentTarget.replaceWith(placeholder()),
    class: 'img',
    src,
    alt: media?.alt ?? external?.alt ?? product.name,
    width: media?.width ?? size,
    height: media?.height ?? size,
    loading: eager ? 'eager' : 'lazy',
    decoding: 'async',
  });
}
