import type { ShippingMethod, ShippingZone } from '../../modules/shipping/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Table } from '../components/table';
import { currencyField } from '../currency-fields';
import type { Money } from '../money';
import { Checkbox } from './coupons';

const HERE = '/admin/settings/shipping';
export const ZONE_FIELDS = ['name', 'countries', 'regions', 'postcodes', 'restOfWorld'];
export const METHOD_FIELDS = ['name', 'carrier', 'minDeliveryDays', 'maxDeliveryDays', 'position', 'rateType', 'amount', 'bands', 'freeAbove', 'active'];
export const RATE_TYPES: [string, string][] = [
  ['flat', 'Flat: one amount'],
  ['weight', "By weight: bands of the cart's weight"],
  ['price', "By price: bands of the cart's subtotal"],
];

const zonePath = (zone: Pick<ShippingZone, 'id'>) => `${HERE}/zones/${zone.id}`;

/** Where a zone ships, in words. */
export function placesOf(zone: ShippingZone): string {
  if (zone.restOfWorld) return 'Every address no other zone serves';
  const places = [...zone.countries, ...zone.regions].join(', ') || 'nowhere yet';
  return zone.postcodes.length ? `${places}; postcodes ${zone.postcodes.join(', ')}` : places;
}

/** A rate and its threshold in words, amounts in `currency`, weights in the store's `weightUnit`. */
function rateText(rate: ShippingMethod['rate'], freeAbove: number | null, currency: string, format: Money, weightUnit: string): string {
  const money = (amount: number) => format(amount, currency);
  const free = freeAbove === null ? '' : `; free from ${money(freeAbove)}`;
  if (rate.type === 'flat') return `${money(rate.amount)}${free}`;
  const bands =
    rate.type === 'weight'
      ? rate.bands.map((b, i) => {
          const below = rate.bands[i - 1]?.upTo;
          const upTo = b.upTo === null ? (below === undefined || below === null ? 'any weight' : `above ${below} ${weightUnit}`) : `up to ${b.upTo} ${weightUnit}`;
          return `${upTo}: ${money(b.amount)}`;
        })
      : rate.bands.map((b) => `from ${money(b.from)}: ${money(b.amount)}`);
  return `${bands.join(', ')}${free}`;
}

/** A method's rate in words, in the store's default currency, then its own rates in other currencies. */
export function rateOf(method: ShippingMethod, currency: string, money: Money, weightUnit: string): string {
  const own = method.currencyRates.map((r) => `${r.currency}: ${rateText(r.rate, r.freeAbove, r.currency, money, weightUnit)}`);
  return [rateText(method.rate, method.freeAbove, currency, money, weightUnit), ...own].join(' · ');
}

/** Delivery in days, as far as the method says: `2–4 days`, `3 days`, `up to 5 days`, `from 2 days`. */
export function deliveryDays(min: number | null, max: number | null): string {
  const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
  if (min === null && max === null) return '—';
  if (min === null) return `up to ${days(max!)}`;
  if (max === null) return `from ${days(min)}`;
  return min === max ? days(min) : `${min}–${days(max)}`;
}

function MethodsTable(v: { zone: ShippingZone; methods: ShippingMethod[]; currency: string; weightUnit: string; money: Money; links: boolean; empty: string }) {
  return (
    <Table caption={`Methods of ${v.zone.name}`} head={['Method', 'Carrier', 'Rate', 'Delivery', 'State']} count={v.methods.length} empty={v.empty}>
      {v.methods.map((m) => (
        <tr>
          <td>{v.links ? <a href={`${zonePath(v.zone)}/methods/${m.id}`}>{m.name}</a> : m.name}</td>
          <td>{m.carrier ?? '—'}</td>
          <td>{rateOf(m, v.currency, v.money, v.weightUnit)}</td>
          <td>{deliveryDays(m.minDeliveryDays, m.maxDeliveryDays)}</td>
          <td>
            <Badge value={m.active ? 'active' : 'inactive'} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

function ZoneFormFields({ form }: { form: FormState }) {
  return (
    <>
      <FormErrors form={form} fields={ZONE_FIELDS} />
      <div class="form-row">
        <Field form={form} name="name" label="Name" required placeholder="Germany" />
        <Field form={form} name="countries" label="Countries" placeholder="DE, AT" hint="ISO codes, separated by commas or spaces." />
        <Field form={form} name="regions" label="Regions" placeholder="US-CA" hint="Country, dash, region: served apart from their country." />
        <Field form={form} name="postcodes" label="Postcodes" placeholder="10*, 20095" hint="Exact, or a prefix ending in *. Blank: every postcode." />
      </div>
      <Checkbox form={form} name="restOfWorld" label="Rest of the world: every address no other zone serves (no countries, regions or postcodes)" />
    </>
  );
}

/** The fields of one rate: its type, flat amount, threshold and bands; `name` gives each field's name (`bands`, or `bands.EUR` in a currency's row). */
function RateFields(v: { form: FormState; weightUnit: string; currency: string; blank?: string; name: (field: string) => string }) {
  return (
    <>
      <div class="form-row">
        <Select form={v.form} name={v.name('rateType')} label={`Rate (${v.currency})`} options={RATE_TYPES} blank={v.blank} required={v.blank === undefined} />
        <Field form={v.form} name={v.name('amount')} label={`Flat amount (${v.currency})`} type="number" step="0.01" min="0" hint="For a flat rate." />
        <Field form={v.form} name={v.name('freeAbove')} label={`Free from (${v.currency})`} type="number" step="0.01" min="0" hint="Subtotal after discounts. Blank: never free." />
      </div>
      <Field
        form={v.form}
        name={v.name('bands')}
        label={`Bands (${v.currency})`}
        type="textarea"
        hint={`One band a line, two numbers. By weight: up to (${v.weightUnit}) and amount, * for the last open band (2 4.99, then * 9.99). By price: subtotal from and amount (0 4.99, then 50 0).`}
      />
    </>
  );
}

const RATE_FIELDS = ['rateType', 'amount', 'bands', 'freeAbove'];

function MethodFormFields({ form, weightUnit, currency, currencies }: { form: FormState; weightUnit: string; currency: string; currencies: string[] }) {
  return (
    <>
      <FormErrors form={form} fields={[...METHOD_FIELDS, ...currencies.flatMap((code) => RATE_FIELDS.map((f) => currencyField(f, code)))]} />
      <div class="form-row">
        <Field form={form} name="name" label="Name" required placeholder="DHL Paket" />
        <Field form={form} name="carrier" label="Carrier" placeholder="DHL" />
        <Field form={form} name="minDeliveryDays" label="Delivery from (days)" type="number" min="0" />
        <Field form={form} name="maxDeliveryDays" label="Delivery to (days)" type="number" min="0" />
        <Field form={form} name="position" label="Position" type="number" min="0" hint="Lowest first." />
      </div>
      <RateFields form={form} weightUnit={weightUnit} currency={currency} name={(field) => field} />
      {currencies.map((code) => (
        <fieldset>
          <legend>Own rate in {code}</legend>
          <RateFields form={form} weightUnit={weightUnit} currency={code} blank="None: the default rate converted" name={(field) => currencyField(field, code)} />
        </fieldset>
      ))}
      <Checkbox form={form} name="active" label="Active: offered to shoppers" />
    </>
  );
}

export interface ShippingView {
  zones: { zone: ShippingZone; methods: ShippingMethod[] }[];
  zoneForm: FormState;
  currency: string;
  weightUnit: string;
  money: Money;
  csrf: string;
  canWrite: boolean;
}

export function ShippingPage(v: ShippingView) {
  return (
    <>
      <p class="muted">
        An address is served by its most specific zone (postcode, then region, then country, then the rest of the world), and offered that zone's active methods. A store with no
        zone charges no shipping. Amounts are in {v.currency}, converted for carts in other currencies. Orders keep the method and charge they were placed with.
      </p>
      {v.zones.length === 0 ? <p>No shipping zones: orders are charged no shipping.</p> : null}
      {v.zones.map(({ zone, methods }) => (
        <section class="card" aria-labelledby={`zone-${zone.id}`}>
          <h2 id={`zone-${zone.id}`}>
            {zone.name} {zone.restOfWorld ? <Badge value="rest_of_world" /> : null}
          </h2>
          <p>{placesOf(zone)}</p>
          <MethodsTable
            zone={zone}
            methods={methods}
            currency={v.currency}
            weightUnit={v.weightUnit}
            money={v.money}
            links={v.canWrite}
            empty="No methods: addresses of this zone cannot check out."
          />
          {v.canWrite ? (
            <div class="actions">
              <a href={zonePath(zone)}>Edit zone and add methods</a>
            </div>
          ) : null}
        </section>
      ))}
      {v.canWrite ? (
        <PostForm action={`${HERE}/zones`} csrf={v.csrf} class="card">
          <h3>Add a zone</h3>
          <ZoneFormFields form={v.zoneForm} />
          <button type="submit">Add zone</button>
        </PostForm>
      ) : null}
    </>
  );
}

export interface ZoneView {
  zone: ShippingZone;
  methods: ShippingMethod[];
  form: FormState;
  methodForm: FormState;
  weightUnit: string;
  currency: string;
  money: Money;
  /** The store's other currencies, each with a row for the method's own rate in it. */
  currencies: string[];
  csrf: string;
}

export function ZoneEditPage(v: ZoneView) {
  const z = v.zone;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← Shipping</a>
      </div>
      <PostForm action={zonePath(z)} csrf={v.csrf} class="card">
        <h2>Zone “{z.name}”</h2>
        <ZoneFormFields form={v.form} />
        <button type="submit">Save zone</button>
      </PostForm>
      <ActionButton action={`${zonePath(z)}/delete`} csrf={v.csrf} label="Delete zone" danger confirm={`Delete the zone "${z.name}" and its methods?`} />
      <h2>Methods</h2>
      <MethodsTable zone={z} methods={v.methods} currency={v.currency} weightUnit={v.weightUnit} money={v.money} links empty="No methods yet." />
      <PostForm action={`${zonePath(z)}/methods`} csrf={v.csrf} class="card">
        <h3>Add a method</h3>
        <MethodFormFields form={v.methodForm} weightUnit={v.weightUnit} currency={v.currency} currencies={v.currencies} />
        <button type="submit">Add method</button>
      </PostForm>
    </>
  );
}

export function MethodEditPage(v: { zone: ShippingZone; method: ShippingMethod; form: FormState; weightUnit: string; currency: string; currencies: string[]; csrf: string }) {
  const path = `${zonePath(v.zone)}/methods/${v.method.id}`;
  return (
    <>
      <div class="actions">
        <a href={zonePath(v.zone)}>← Zone “{v.zone.name}”</a>
      </div>
      <PostForm action={path} csrf={v.csrf} class="card">
        <h2>Method “{v.method.name}”</h2>
        <p class="muted">Carts are priced anew; orders already placed keep the charge they were placed with.</p>
        <MethodFormFields form={v.form} weightUnit={v.weightUnit} currency={v.currency} currencies={v.currencies} />
        <button type="submit">Save method</button>
      </PostForm>
      <ActionButton action={`${path}/delete`} csrf={v.csrf} label="Delete method" danger confirm={`Delete the method "${v.method.name}"?`} />
    </>
  );
}
