// The Worker's settings: every variable of wrangler.toml's [vars], .dev.vars and `wrangler secret`,
// typed, defaulted and described here and nowhere else (docs/deploying.md's table is made from it,
// test/config.node.test.ts checks wrangler.toml and .dev.vars against it). Bindings (D1, queues,
// Durable Objects, R2) are typed in src/env.ts. Read a setting with `config(env).NAME`.

/** An unset variable: absent, or empty as wrangler.toml writes an unset string (`CORS_ORIGINS = ""`). */
const blank = (raw: Raw): raw is undefined => raw === undefined || String(raw).trim() === '';

/** What the Worker may find in a variable: a string (a number from a test's env), or nothing. */
type Raw = string | number | undefined;

/** What a wrong value must be instead, said after the variable's name. */
class Problem {
  constructor(readonly message: string) {}
}

/**
 * A variable: how its value reads (a Problem when wrong) and what it does. Plain functions rather
 * than a zod schema: building ~50 schemas cost ~9 ms of every isolate's startup (docs/performance.md).
 */
interface Variable<T> {
  read(raw: Raw): T | Problem;
  description: string;
  secret?: true;
}

/** A whole number above 0, `fallback` when unset. */
function count(fallback: number, description: string): Variable<number> {
  return {
    description,
    read(raw) {
      if (blank(raw)) return fallback;
      const text = String(raw).trim();
      if (/^\d+$/.test(text) && Number(text) > 0) return Number(text);
      return new Problem(`must be a whole number above 0, not "${text}"`);
    },
  };
}

/** One of `choices`, `fallback` when unset. */
function choice<const T extends string>(choices: readonly [T, ...T[]], fallback: T, description: string): Variable<T> {
  return {
    description,
    read(raw) {
      if (blank(raw)) return fallback;
      const text = String(raw).trim();
      if ((choices as readonly string[]).includes(text)) return text as T;
      return new Problem(`must be ${choices.map((c) => `"${c}"`).join(' or ')}, not "${text}"`);
    },
  };
}

/** `true` or `false`, false when unset. */
function flag(description: string): Variable<boolean> {
  return {
    description,
    read(raw) {
      if (blank(raw)) return false;
      const text = String(raw).trim();
      if (text === 'true' || text === 'false') return text === 'true';
      return new Problem(`must be "true" or "false", not "${text}"`);
    },
  };
}

function isUrl(text: string): boolean {
  try {
    return Boolean(new URL(text));
  } catch {
    return false;
  }
}

/** An http(s) URL without trailing slashes, `fallback` (or undefined) when unset. */
function url<F extends string | undefined = undefined>(description: string, fallback?: F): Variable<string | F> {
  return {
    description,
    read(raw) {
      if (blank(raw)) return fallback as F;
      const text = String(raw).trim();
      if (/^https?:\/\/[^/]/.test(text) && isUrl(text)) return text.replace(/\/+$/, '');
      return new Problem(`must be an http(s) URL, not "${text}"`);
    },
  };
}

/** Free text (trimmed), `fallback` (or undefined) when unset. */
function text<F extends string | undefined = undefined>(description: string, fallback?: F): Variable<string | F> {
  return { description, read: (raw) => (blank(raw) ? (fallback as F) : String(raw).trim()) };
}

/** A list separated by commas or spaces, empty when unset. */
function list(description: string): Variable<string[]> {
  return {
    description,
    read: (raw) =>
      blank(raw)
        ? []
        : String(raw)
            .split(/[\s,]+/)
            .filter(Boolean),
  };
}

/** A secret (`wrangler secret put`, .dev.vars locally): never in wrangler.toml, never echoed in an error. */
const secret = (description: string): Variable<string | undefined> => ({
  description,
  secret: true,
  read: (raw) => (blank(raw) ? undefined : String(raw)),
});

const MiB = 1024 * 1024;

/** Every variable, in the order docs/deploying.md lists them. */
const VARIABLES = {
  ENVIRONMENT: choice(
    ['production', 'development'],
    'production',
    '`development` adds Server-Timing and X-D1-* cost headers, plain-http admin cookies and logged outbox messages; npm run dev and the tests set it.',
  ),
  MAX_BODY_BYTES: count(MiB, 'Largest request body in bytes, in the API and the admin panel (413 above it); uploads and imports have their own limits.'),

  RATE_LIMIT_AUTHENTICATED: count(1000, 'Requests per window per API key or signed-in user.'),
  RATE_LIMIT_ANONYMOUS: count(100, 'Requests per window per client network without a credential.'),
  RATE_LIMIT_WINDOW_SECONDS: count(3600, "The sliding window of every rate limit in seconds; only tests shorten it (the client libraries' live tests use 2)."),
  RATE_LIMIT_LEASE_SECONDS: count(10, 'Seconds an isolate may answer a busy key from a lease before giving back what it did not use (src/rate-limit/leases.ts).'),
  CATALOGUE_CACHE_QUIET_MS: count(
    2000,
    'Milliseconds an isolate trusts the catalogue version it read, serving kept catalogue answers without a D1 read (src/middleware/catalogue-cache.ts).',
  ),
  CORS_ORIGINS: list(
    "Origins allowed to call /api from a browser besides the settings' allowedOrigins, comma separated; exact or `https://*.shop.example` (src/middleware/cors.ts).",
  ),

  JWT_SECRET: secret('Signs user JWTs (HS256) and derives reset and cart-recovery tokens and gift card codes; sign-in fails without it.'),
  JWT_TTL_SECONDS: count(86_400, 'Lifetime of a user JWT in seconds.'),
  BOOTSTRAP_SECRET: secret('One-time secret that lets a deployed store create its first admin (POST /api/auth/bootstrap, /admin/setup); delete it afterwards.'),
  PASSWORD_RESET_URL: url('The storefront page that takes a reset token; the email links to it with `?token=...`.', 'http://localhost:3000/reset-password'),
  PASSWORD_RESET_TTL_SECONDS: count(3600, 'Lifetime of a password-reset token in seconds.'),

  ORDER_NUMBER_START: count(1001, "The first order's number (`#1001`); each order gets the next after the highest (src/modules/orders/place-order.ts)."),
  ORDER_PAYMENT_TTL_MINUTES: count(60, 'Minutes a pending order may stay unpaid before the minute cron cancels it (src/modules/payments/order-expiry.ts).'),
  CART_ABANDONED_AFTER_MINUTES: count(
    60,
    'Minutes a cart with lines and an email may stay unchanged before the minute cron calls it abandoned (src/modules/carts/abandonment.ts).',
  ),
  CART_RECOVERY_URL: url('The storefront page a cart reminder links to, with `cart` and a single-use `token` (src/modules/carts/recovery.ts).', 'http://localhost:3000/cart'),

  STRIPE_SECRET_KEY: secret("Stripe's API key (`sk_live_…`, `sk_test_…` or a restricted `rk_…`); with STRIPE_WEBHOOK_SECRET it enables the `stripe` payment provider."),
  STRIPE_WEBHOOK_SECRET: secret('The signing secret (`whsec_…`) of the Stripe webhook endpoint registered for /api/payments/stripe/webhook.'),
  STRIPE_API_BASE: url('Where the Stripe API is (https://api.stripe.com when unset); tests point it at a loopback fake.'),

  MEDIA_MAX_BYTES: count(10 * MiB, 'Largest uploaded image in bytes.'),
  MEDIA_BASE_URL: url("What image URLs start with (your public origin + /media, or an R2 custom domain); the upload's origin + /media when unset."),
  IMPORT_MAX_BYTES: count(10 * MiB, 'Largest product CSV POST /api/products/import takes, in bytes (src/modules/imports/).'),
  CSV_EXPORT_MAX_ROWS: count(10_000, 'Most rows a CSV export (`?format=csv`) may hold; more is 413 (src/middleware/csv-export.ts).'),

  WEBHOOK_ALLOW_PRIVATE_URLS: flag('`true` lets webhook URLs be plain http or private/loopback addresses: local development only (npm run dev sets it).'),
  WEBHOOK_RETRY_BASE_SECONDS: count(30, 'First retry delay of a failed webhook delivery in seconds, doubled each attempt (capped at 6 hours).'),
  WEBHOOK_DISABLE_AFTER_HOURS: count(72, 'An endpoint failing this many hours without one success is disabled.'),
  WEBHOOK_TIMEOUT_MS: count(10_000, 'Milliseconds a webhook receiver has to answer.'),
  EVENT_RETENTION_DAYS: count(
    30,
    'Days the store keeps its events for GET /api/events and webhook replays; the hourly cron prunes older ones (src/modules/events/events.prune.ts).',
  ),

  NOTIFICATIONS_EMAIL_PROVIDER: choice(
    ['outbox', 'resend'],
    'outbox',
    '`outbox` keeps each email in D1, readable at /api/notifications, and sends nothing; `resend` sends with RESEND_API_KEY.',
  ),
  NOTIFICATIONS_SMS_PROVIDER: choice(['outbox', 'twilio'], 'outbox', '`outbox` (kept in D1) or `twilio` (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM).'),
  NOTIFICATIONS_EMAIL_FROM: text('The From of every email.', 'Store <store@example.com>'),
  NOTIFICATIONS_RETRY_BASE_SECONDS: count(30, 'First retry delay of a failed notification in seconds, doubled each attempt.'),
  NOTIFICATIONS_TIMEOUT_MS: count(10_000, 'Milliseconds an email or SMS provider has to answer.'),
  RESEND_API_KEY: secret('The Resend API key (NOTIFICATIONS_EMAIL_PROVIDER = "resend").'),
  RESEND_API_URL: url("Resend's base URL (https://api.resend.com when unset); tests point it at a loopback receiver."),
  TWILIO_ACCOUNT_SID: secret('The Twilio account SID (NOTIFICATIONS_SMS_PROVIDER = "twilio").'),
  TWILIO_AUTH_TOKEN: secret('The Twilio auth token.'),
  TWILIO_FROM: secret('The sending number or Messaging Service SID of Twilio.'),
  TWILIO_API_URL: url("Twilio's base URL (https://api.twilio.com when unset)."),
} satisfies Record<string, Variable<unknown>>;

export type Config = { [K in keyof typeof VARIABLES]: Exclude<ReturnType<(typeof VARIABLES)[K]['read']>, Problem> };
export type ConfigName = keyof Config;
/** The variables as the Worker receives them: strings, each optional. */
export type Vars = { [K in ConfigName]?: string };

/** Every variable's name, in the list's order. */
export const CONFIG_NAMES = Object.keys(VARIABLES) as ConfigName[];
/** Variables that are secrets: set with `wrangler secret put` (or .dev.vars), never in wrangler.toml. */
export const SECRET_NAMES = CONFIG_NAMES.filter((name) => (VARIABLES[name] as Variable<unknown>).secret);
/** What a variable does (docs/deploying.md's table). */
export const configDescription = (name: ConfigName): string => VARIABLES[name].description;

/** A variable with a value its reader refuses; the message names each one and what it must be. */
export class ConfigError extends Error {
  constructor(readonly problems: { name: string; message: string }[]) {
    super(`Invalid configuration (wrangler.toml [vars], .dev.vars or wrangler secret): ${problems.map((p) => `${p.name} ${p.message}`).join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the variables of `env`, throwing a ConfigError naming every invalid one. */
export function parseConfig(env: object): Config {
  const values: Record<string, unknown> = {};
  const problems: { name: string; message: string }[] = [];
  for (const name of CONFIG_NAMES) {
    const raw: unknown = (env as Record<string, unknown>)[name];
    // Secrets' messages never hold the value; nor does this one, for any variable.
    const value = typeof raw === 'string' || typeof raw === 'number' || raw === undefined ? VARIABLES[name].read(raw) : new Problem('is not a string');
    if (value instanceof Problem) problems.push({ name, message: value.message });
    else values[name] = value;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return values as Config;
}

/** What each variable is when unset. */
export const CONFIG_DEFAULTS: Config = parseConfig({});

// The Worker gets the same env object for every request of an isolate, so each is parsed once.
const parsed = new WeakMap<object, Config>();

/** The settings of `env` (the Worker's env, or a test's copy of it), parsed once per env object. */
export function config(env: Vars | undefined): Config {
  // No env at all (a script calling the app without one): every variable unset.
  if (env === undefined) return CONFIG_DEFAULTS;
  let settings = parsed.get(env);
  if (!settings) {
    settings = parseConfig(env);
    parsed.set(env, settings);
  }
  return settings;
}
