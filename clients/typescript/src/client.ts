// The client: the generated resource groups (`store.products`, `store.orders`, ...) over one HTTP
// core holding the base URL, the credentials and the retry settings.

import { Core, type ClientOptions, type ClientStats, type RequestOptions } from './core.js';
import { StoreResources } from './generated/operations.js';

/**
 * A client of the Store API.
 *
 * ```ts
 * const store = new StoreClient({ baseUrl: 'https://store.example.com', apiKey: process.env.STORE_API_KEY });
 * const { data, pagination } = await store.products.list({ category: 't-shirts', price_max: 30 });
 * ```
 */
export class StoreClient extends StoreResources {
  constructor(options: ClientOptions) {
    super(new Core(options));
  }

  /** The store's URL (without `/api`). */
  get baseUrl(): string {
    return this.core.baseUrl;
  }

  /** The newest `X-D1-Bookmark` the API answered with: sent on every later request, so reads see this client's writes. */
  get bookmark(): string | undefined {
    return this.core.bookmark;
  }

  /** The API version this client asks to be answered in (`Store-Version`): its `storeVersion` option, else `STORE_VERSION`. */
  get storeVersion(): string {
    return this.core.storeVersion;
  }

  /** Requests sent and retries made by this client so far. */
  get stats(): Readonly<ClientStats> {
    return this.core.stats;
  }

  /**
   * Uses a user token (from sign-in or sign-up) from now on, instead of the API key or the
   * publishable key; `null` (signing out) drops it, and the key is sent again.
   */
  setToken(token: string | null | undefined): this {
    this.core.token = token ?? undefined;
    return this;
  }

  /** Uses this API key (`sk_...`) from now on; `null` drops it. */
  setApiKey(apiKey: string | null | undefined): this {
    this.core.apiKey = apiKey ?? undefined;
    return this;
  }

  /** Uses this publishable key (`pk_...`) while no token or API key is set; `null` drops it. */
  setPublishableKey(publishableKey: string | null | undefined): this {
    this.core.publishableKey = publishableKey ?? undefined;
    return this;
  }

  /**
   * Sends this shopper's address as `X-Buyer-IP` on every request from now on; `null` stops. For a
   * server whose secret key holds `storefront:buyer-ip`; a client shared by concurrent requests
   * should pass `{ buyerIp }` per call, or use `with({ buyerIp })`, instead.
   */
  setBuyerIp(buyerIp: string | null | undefined): this {
    this.core.buyerIp = buyerIp ?? undefined;
    return this;
  }

  /** Sends this guest cart token (`X-Cart-Token`) on cart operations from now on; `null` drops it. */
  setCartToken(cartToken: string | null | undefined): this {
    this.core.cartToken = cartToken ?? undefined;
    return this;
  }

  /** A new client with the same settings and credentials, changed by `overrides` (its own stats). */
  with(overrides: Partial<ClientOptions>): StoreClient {
    return new StoreClient({
      ...this.core.options,
      apiKey: this.core.apiKey,
      token: this.core.token,
      publishableKey: this.core.publishableKey,
      buyerIp: this.core.buyerIp,
      cartToken: this.core.cartToken,
      ...overrides,
    });
  }

  /**
   * Any endpoint, for what the generated methods do not cover: `path` starts with `/api/`. The
   * answer is the whole JSON body (`raw`), or unwrapped as `item` / `list`.
   */
  request<T = unknown>(
    method: string,
    path: string,
    { query, body, kind = 'raw', idempotent, ...options }: RequestOptions & { query?: object; body?: unknown; kind?: 'item' | 'list' | 'none' | 'raw'; idempotent?: boolean } = {},
  ): Promise<T> {
    return this.core.request<T>({ method, path, query, body, kind, idempotent, cartToken: true }, options);
  }
}
