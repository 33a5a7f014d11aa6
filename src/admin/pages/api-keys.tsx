import type { ApiKey } from '../../modules/api-keys/schemas';
import type { Pagination } from '../../lib/envelope';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { SecretOnce } from '../components/secret';
import { Badge, Pager, Table, when } from '../components/table';
import { VERSION_DATES } from '../../versions/versions';

export interface ApiKeysView {
  keys: ApiKey[];
  page: Pagination;
  url: string;
  roles: string[];
  form: FormState;
  csrf: string;
  canWrite: boolean;
  /** The key just generated: shown this once. */
  created?: { key: string; apiKey: ApiKey };
}

/** What the panel mints: a role's secret key, a publishable key, or a storefront server's key (storefront:buyer-ip). */
export const KEY_KINDS = ['secret', 'publishable', 'storefront server'];

export function ApiKeysPage(v: ApiKeysView) {
  return (
    <>
      {v.created ? <NewKey {...v.created} /> : null}
      {v.canWrite ? (
        <section class="card" aria-labelledby="new-key">
          <h2 id="new-key">Generate a key</h2>
          <FormErrors form={v.form} fields={['name', 'kind', 'role', 'vendorId', 'allowedOrigins', 'expiresAt', 'apiVersion']} />
          <PostForm action="/admin/settings/api-keys" csrf={v.csrf}>
            <div class="form-row">
              <Field form={v.form} name="name" label="Name" required hint="What uses the key, e.g. Warehouse sync." />
              <Select form={v.form} name="kind" label="Kind" options={KEY_KINDS} />
              <Select form={v.form} name="role" label="Role" options={v.roles} />
              <Field form={v.form} name="vendorId" label="Vendor id" hint="Only for the vendor role: the vendor the key acts for." />
              <Field form={v.form} name="expiresAt" label="Expires on" type="date" hint="Optional; the key stops working at the end of that day (UTC)." />
              <Select
                form={v.form}
                name="apiVersion"
                label="API version"
                options={VERSION_DATES}
                hint="The shapes its requests are answered in when they send no Store-Version header; preset to the store's default."
              />
            </div>
            <Field
              form={v.form}
              name="allowedOrigins"
              label="Origins (publishable keys)"
              type="textarea"
              hint="Web pages a publishable key may be used from, one a line: https://shop.example or https://*.shop.example."
            />
            <p class="hint">
              <strong>secret</strong>: for servers and scripts, with the role's permissions. <strong>publishable</strong> (pk_): safe in a web page; what a shopper without an
              account can do, only from its origins, counted per shopper. <strong>storefront server</strong>: a secret key for a server-rendered storefront, with a shopper's
              abilities, that names each shopper in X-Buyer-IP to have them counted one by one.
            </p>
            <button type="submit">Generate key</button>
          </PostForm>
        </section>
      ) : null}
      <h2>Keys</h2>
      <Table caption="API keys" head={['Name', 'Prefix', 'Role', 'API version', 'Status', 'Last used', 'Expires', 'Created', '']} count={v.keys.length} empty="No API keys yet.">
        {v.keys.map((k) => (
          <tr>
            <td>{k.name}</td>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td>{k.type === 'publishable' ? `publishable: ${k.allowedOrigins.join(', ')}` : (k.role ?? (k.permissions.join(', ') || '—'))}</td>
            <td>{v.canWrite && k.status !== 'revoked' ? <KeyVersionForm apiKey={k} csrf={v.csrf} /> : k.apiVersion}</td>
            <td>
              <Badge value={k.status} />
            </td>
            <td>{when(k.lastUsedAt)}</td>
            <td>{when(k.expiresAt)}</td>
            <td>{when(k.createdAt)}</td>
            <td>
              {v.canWrite && k.status !== 'revoked' ? (
                <ActionButton
                  action={`/admin/settings/api-keys/${k.id}/revoke`}
                  csrf={v.csrf}
                  label="Revoke"
                  danger
                  confirm={`Revoke the key "${k.name}"? Anything using it stops working at once.`}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

/** The key's pinned version, changed in place. */
function KeyVersionForm({ apiKey, csrf }: { apiKey: ApiKey; csrf: string }) {
  return (
    <PostForm action={`/admin/settings/api-keys/${apiKey.id}/version`} csrf={csrf}>
      <label>
        <span class="sr-only">API version of {apiKey.name}</span>
        <select name="apiVersion">
          {VERSION_DATES.map((version) => (
            <option value={version} selected={version === apiKey.apiVersion}>
              {version}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="submit" class="secondary">
        Save
      </button>
    </PostForm>
  );
}

function NewKey({ key, apiKey }: { key: string; apiKey: ApiKey }) {
  return (
    <SecretOnce
      title={`Your new key “${apiKey.name}”`}
      value={key}
      id="new-key-value"
      note="Only a hash is stored, so nobody can show it again. Send it as Authorization: Bearer <key>."
    />
  );
}
