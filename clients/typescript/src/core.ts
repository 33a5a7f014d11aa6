// The HTTP core every generated method calls: builds the URL and headers, sends the request with
// the global `fetch`, retries what is safe to retry, and unwraps the envelope (`data`, or `data` and
// `pagination` for lists) or throws the typed error.
//
// Retries: a 429 is retried after `Retry-After` (or, without one, an exponential backoff with full
// jitter), unless `Retry-After` is longer than `maxRetryWaitMs`. 5xx answers and network errors are
// retried only when repeating the request cannot do the work twice: GET, HEAD and DELETE, and POSTs
// sent with an `Idempotency-Key` (the server replays the first answer). At most `maxRetries` retries.

import { codeForStatus, errorFor, type StoreApiError, StoreConnectionError } from './errors.js';
import { STORE_VERSION } from './generated/version.js';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

/** What a list method resolves to: one page of items and where it is (and a product list's `facets`, when asked for). */
export interface ListResult<T> {
  data: T[];
  pagination: Pagination;
  facets?: Record<string, unknown[]>;
}

/** Per-call options, the last argument of every method. */
export interface RequestOptions {
  /** `Idempotency-Key` for operations that take one (a random UUID is sent when not given). Give the same key to repeat an operation safely. */
  idempotencyKey?: string;
  /** `X-Cart-Token` for this call (default: the client's cart token). */
  cartToken?: string;
  /** A bearer credential for this call only (an API key or a user token); wins over the client's. */
  token?: string;
  /**
   * `X-Buyer-IP` for this call (default: the client's `buyerIp`): the address of the shopper a
   * server-rendered storefront is answering, so the request is counted on that shopper. Needs a
   * secret key holding `storefront:buyer-ip`; never from a browser.
   */
  buyerIp?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Cancels the request (and its retries). */
  signal?: AbortSignal;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
}

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  /** How long the client waits before it. */
  delayMs: number;
  method: string;
  url: string;
  /** The status that caused it (429, 5xx), or undefined for a network error. */
  status?: number;
  error?: unknown;
}

export interface ClientOptions {
  /** Where the store runs, e.g. `https://store.example.com` (the `/api/...` paths are added; a trailing `/api` is ignored). */
  baseUrl: string;
  /** An API key (`sk_...`), sent as `Authorization: Bearer`. For servers only: never put one in a web page. */
  apiKey?: string;
  /** A user token (JWT from `auth` sign-in); used instead of `apiKey` or `publishableKey` when set. */
  token?: string;
  /**
   * A publishable key (`pk_...`), safe in browser code: a shopper's abilities only (catalogue,
   * carts, checkout, sign-up and sign-in), from the origins the key allows. Sent as
   * `Authorization: Bearer` when no token or `apiKey` is set, so a signed-in shopper's token
   * replaces it and signing out (`setToken(null)`) goes back to it.
   */
  publishableKey?: string;
  /**
   * Sent as `X-Buyer-IP` on every request (a call's `buyerIp` overrides it): the shopper a
   * server-rendered storefront is answering, so the request is counted on that shopper instead of
   * the key. Needs a secret key (`apiKey`) holding `storefront:buyer-ip` (403 otherwise, 400 for a
   * value that is not an IPv4 or IPv6 address). Server-side only: never from a browser.
   */
  buyerIp?: string;
  /** A guest cart's token, sent as `X-Cart-Token` on cart operations. */
  cartToken?: string;
  /** Retries after a 429, a 5xx or a network error (default 3). */
  maxRetries?: number;
  /** The longest wait for one retry, `Retry-After` included (default 60 000 ms); a longer `Retry-After` throws RateLimitedError at once. */
  maxRetryWaitMs?: number;
  /** The first backoff step without `Retry-After` (default 500 ms); doubles each retry, full jitter. */
  retryBaseDelayMs?: number;
  /** Per attempt (default 30 000 ms). */
  timeoutMs?: number;
  /**
   * The API version to be answered in, sent as `Store-Version` on every request (docs/versioning.md).
   * Default: `STORE_VERSION`, the version this client was generated for, whose shapes its types
   * describe; whatever the key is pinned to or the store defaults to. A `Store-Version` in `headers`
   * wins over it.
   */
  storeVersion?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A fetch implementation (default: the global `fetch`). */
  fetch?: typeof fetch;
  /** Called before every retry, with why and how long the client waits. */
  onRetry?: (info: RetryInfo) => void;
}

/** The bytes of an uploaded file. */
export type FileBody = Blob | ArrayBuffer | Uint8Array;

/** What a generated method passes to the core. */
export interface RequestSpec {
  method: string;
  /** The path with its parameters filled in, starting with `/api/`. */
  path: string;
  query?: object;
  body?: unknown;
  /** A file sent as the raw body (an image upload). */
  file?: FileBody;
  /** 'item': resolve `data`; 'list': `{ data, pagination }`; 'none': nothing; 'raw': the whole JSON. */
  kind: 'item' | 'list' | 'none' | 'raw';
  /** Takes `Idempotency-Key`: one is always sent, and 5xx / network errors are retried with it. */
  idempotent?: boolean;
  /** Takes `X-Cart-Token`. */
  cartToken?: boolean;
}

export interface ClientStats {
  /** Requests sent, retries included. */
  requests: number;
  /** Retries made. */
  retries: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value.trim()) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function queryString(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) params.append(name, value.join(','));
    else if (value instanceof Date) params.append(name, value.toISOString());
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export class Core {
  readonly baseUrl: string;
  apiKey: string | undefined;
  token: string | undefined;
  publishableKey: string | undefined;
  buyerIp: string | undefined;
  cartToken: string | undefined;
  /** Sent as `Store-Version` on every request. */
  readonly storeVersion: string;
  readonly options: Readonly<Required<Pick<ClientOptions, 'maxRetries' | 'maxRetryWaitMs' | 'retryBaseDelayMs' | 'timeoutMs'>>> & ClientOptions;
  readonly stats: ClientStats = { requests: 0, retries: 0 };
  /**
   * The newest `X-D1-Bookmark` the API answered with, sent on every later request: reads then see
   * at least what this client wrote, even when a database replica serves them.
   */
  bookmark: string | undefined;

  constructor(options: ClientOptions) {
    if (!options || typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl)) {
      throw new TypeError('baseUrl must be the store\'s http(s) URL, e.g. "https://store.example.com"');
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '').replace(/\/api(\/v1)?$/, '');
    this.apiKey = options.apiKey;
    this.token = options.token;
    this.publishableKey = options.publishableKey;
    this.buyerIp = options.buyerIp;
    this.cartToken = options.cartToken;
    this.storeVersion = options.storeVersion ?? STORE_VERSION;
    this.options = { maxRetries: 3, maxRetryWaitMs: 60_000, retryBaseDelayMs: 500, timeoutMs: 30_000, ...options };
  }

  private delayFor(attempt: number): number {
    const ceiling = Math.min(this.options.maxRetryWaitMs, this.options.retryBaseDelayMs * 2 ** (attempt - 1));
    return Math.random() * ceiling; // full jitter
  }

  /** Sends one operation; resolves its unwrapped answer or throws StoreApiError / StoreConnectionError. */
  async request<T>(spec: RequestSpec, options: RequestOptions = {}): Promise<T> {
    const url = `${this.baseUrl}${spec.path}${queryString(spec.query)}`;
    const headers: Record<string, string> = { Accept: 'application/json', ...this.options.headers };
    // A call's token, then the signed-in user's, then the secret key, then the publishable key.
    const credential = options.token || this.token || this.apiKey || this.publishableKey;
    if (credential) headers.Authorization = `Bearer ${credential}`;
    const buyerIp = options.buyerIp ?? this.buyerIp;
    if (buyerIp) headers['X-Buyer-IP'] = buyerIp;
    const cartToken = options.cartToken ?? this.cartToken;
    if (spec.cartToken && cartToken) headers['X-Cart-Token'] = cartToken;
    const idempotencyKey = options.idempotencyKey ?? (spec.idempotent ? crypto.randomUUID() : undefined);
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    let body: BodyInit | undefined;
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(spec.body);
    } else if (spec.file !== undefined) {
      headers['Content-Type'] = (spec.file instanceof Blob && spec.file.type) || 'application/octet-stream';
      // A Uint8Array over any buffer is a valid body; TypeScript's DOM types only admit ArrayBuffer-backed views.
      body = spec.file as BodyInit;
    }
    if (this.bookmark) headers['X-D1-Bookmark'] = this.bookmark;
    Object.assign(headers, options.headers);
    // Unless a header names one (in any case: two names would be sent as one joined value).
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'store-version')) headers['Store-Version'] = this.storeVersion;

    const method = spec.method.toUpperCase();
    const repeatable = ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'PUT'].includes(method) || Boolean(idempotencyKey);
    const maxRetries = options.maxRetries ?? this.options.maxRetries;
    const doFetch = this.options.fetch ?? globalThis.fetch;

    for (let attempt = 0; ; attempt++) {
      const signals = [AbortSignal.timeout(this.options.timeoutMs), ...(options.signal ? [options.signal] : [])];
      let response: Response;
      this.stats.requests++;
      try {
        response = await doFetch(url, { method, headers, body, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (repeatable && attempt < maxRetries) {
          await this.retry({ attempt: attempt + 1, delayMs: this.delayFor(attempt + 1), method, url, error }, options.signal);
          continue;
        }
        throw new StoreConnectionError(`${method} ${url} failed: ${error instanceof Error ? error.message : String(error)}`, { method, url, cause: error });
      }

      const bookmark = response.headers.get('x-d1-bookmark');
      // Bookmarks sort as they advance: keep the newest.
      if (bookmark && (!this.bookmark || bookmark > this.bookmark)) this.bookmark = bookmark;
      if (response.ok) return (await this.unwrap(response, spec)) as T;

      const error = await this.toError(response);
      if (attempt < maxRetries) {
        if (response.status === 429) {
          const after = parseRetryAfter(response.headers.get('retry-after'));
          if (after === undefined || after <= this.options.maxRetryWaitMs) {
            const delayMs = Math.min(this.options.maxRetryWaitMs, Math.max(after ?? 0, this.delayFor(attempt + 1)));
            await this.retry({ attempt: attempt + 1, delayMs, method, url, status: 429, error }, options.signal);
            continue;
          }
        } else if (response.status >= 500 && repeatable) {
          const after = parseRetryAfter(response.headers.get('retry-after'));
          const delayMs = Math.min(this.options.maxRetryWaitMs, Math.max(after ?? 0, this.delayFor(attempt + 1)));
          await this.retry({ attempt: attempt + 1, delayMs, method, url, status: response.status, error }, options.signal);
          continue;
        }
      }
      throw error;
    }
  }

  private async retry(info: RetryInfo, signal?: AbortSignal) {
    this.stats.retries++;
    this.options.onRetry?.(info);
    await sleep(info.delayMs, signal);
  }

  private async unwrap(response: Response, spec: RequestSpec): Promise<unknown> {
    const text = await response.text();
    if (spec.kind === 'none' || response.status === 204 || text === '') return undefined;
    const json = JSON.parse(text) as { data?: unknown; pagination?: Pagination; facets?: Record<string, unknown[]> };
    if (spec.kind === 'item') return json.data;
    if (spec.kind === 'list') return { data: json.data ?? [], pagination: json.pagination, ...(json.facets ? { facets: json.facets } : {}) };
    return json;
  }

  private async toError(response: Response): Promise<StoreApiError> {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const envelope = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return errorFor({
      code: typeof envelope?.code === 'string' ? envelope.code : codeForStatus(response.status),
      status: response.status,
      message: typeof envelope?.message === 'string' ? envelope.message : `${response.status} ${response.statusText}`.trim(),
      details: envelope?.details,
      requestId: response.headers.get('x-request-id'),
      retryAfter: retryAfterMs === undefined ? null : retryAfterMs / 1000,
      body,
    });
  }

  /** Every page of a list operation, from `query.page` (default 1) while `pagination.hasNext`. */
  async *paginate<T>(spec: RequestSpec, options?: RequestOptions): AsyncGenerator<ListResult<T>, void, undefined> {
    const query = { ...(spec.query ?? {}) } as Record<string, unknown>;
    let page = Number(query.page ?? 1);
    for (;;) {
      const result = await this.request<ListResult<T>>({ ...spec, query: { ...query, page } }, options);
      yield result;
      if (!result.pagination?.hasNext || result.data.length === 0) return;
      page = result.pagination.page + 1;
    }
  }
}
