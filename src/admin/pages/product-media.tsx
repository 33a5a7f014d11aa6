import type { Media, Product } from '../../modules/products/schemas';
import { MEDIA_TYPES } from '../../modules/media';
import { ActionButton, Field, FormErrors, type FormState, PostForm } from '../components/form';

const kib = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KiB`;
const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MiB` : kib(bytes));

/** The product page's images: each with its alt text, moves and delete, then the upload form (no script needed). */
export function ProductMediaSection(v: { product: Product; csrf: string; form?: FormState; maxBytes: number }) {
  const p = v.product;
  const base = `/admin/products/${p.id}/media`;
  const form = v.form ?? { values: {}, errors: {} };
  const variantName = (id: string | null) => p.variants.find((variant) => variant.id === id)?.name ?? id;
  return (
    <section id="images">
      <h2>Images</h2>
      {p.media.length ? (
        <div class="media-grid">
          {p.media.map((m: Media, i: number) => (
            <figure>
              <a href={m.url}>
                <img src={m.url} alt={m.alt ?? ''} width={m.width ?? undefined} height={m.height ?? undefined} loading="lazy" />
              </a>
              <figcaption>
                {i + 1}. {m.contentType.replace('image/', '').toUpperCase()}
                {m.width && m.height ? `, ${m.width}×${m.height}` : ''}, {kib(m.byteSize)}
                {m.variantId ? `, variant ${variantName(m.variantId)}` : ''}
              </figcaption>
              <PostForm action={`${base}/${m.id}`} csrf={v.csrf}>
                <Field form={{ values: { [`alt-${m.id}`]: m.alt ?? '' }, errors: {} }} name={`alt-${m.id}`} label="Alt text" />
                <div class="actions">
                  <button type="submit" class="secondary">
                    Save alt text
                  </button>
                </div>
              </PostForm>
              <div class="actions">
                {i > 0 ? <ActionButton action={`${base}/${m.id}`} csrf={v.csrf} label="← Earlier" fields={{ position: String(i - 1) }} /> : null}
                {i < p.media.length - 1 ? <ActionButton action={`${base}/${m.id}`} csrf={v.csrf} label="Later →" fields={{ position: String(i + 1) }} /> : null}
                <ActionButton action={`${base}/${m.id}/delete`} csrf={v.csrf} label="Delete" danger confirm="Delete this image?" />
              </div>
            </figure>
          ))}
        </div>
      ) : (
        <p class="empty">No images yet. The first one uploaded is the one shops show first.</p>
      )}
      <div class="card">
        <PostForm action={base} csrf={v.csrf} enctype="multipart/form-data">
          <FormErrors form={form} fields={['alt']} />
          <div class="form-row">
            <label class="file-field">
              Image file
              <input type="file" name="file" accept={MEDIA_TYPES.join(',')} required />
              <small class="muted">JPEG, PNG, WebP, AVIF or GIF, at most {size(v.maxBytes)}.</small>
            </label>
            <Field form={form} name="alt" label="Alt text" />
          </div>
          <div class="actions">
            <button type="submit">Upload image</button>
          </div>
        </PostForm>
      </div>
    </section>
  );
}
