import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { DEV_VARS } from '../scripts/lib/dev-vars.mjs';
import { CONFIG_DOC, withConfigTable } from '../scripts/config-docs';
import { CONFIG_DEFAULTS, CONFIG_NAMES, ConfigError, config, parseConfig, SECRET_NAMES } from '../src/config';

// src/config.ts is the one list of the Worker's variables: what wrangler.toml, .dev.vars (written by
// npm run dev), deploy:setup's secrets and docs/deploying.md say must agree with it.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The `KEY = "value"` lines of each `[vars]` table of wrangler.toml (`[vars]`, `[env.<name>.vars]`), by table. */
function tomlVars(toml: string): Map<string, Record<string, string>> {
  const tables = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  toml.split('\n').forEach((line, i) => {
    const header = /^\s*\[\[?([^\]]+)\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      const name = header[1]!.trim();
      current = !line.includes('[[') && (name === 'vars' || /^env\.[^.]+\.vars$/.test(name)) ? {} : undefined;
      if (current) tables.set(name, current);
      return;
    }
    if (!current || /^\s*(#.*)?$/.test(line)) return;
    const entry = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(#.*)?$/.exec(line);
    // Anything else in a [vars] table (a number, a bare word) is a line this test cannot check: refuse it.
    if (!entry) throw new Error(`wrangler.toml line ${i + 1} is not KEY = "value": ${line}`);
    current[entry[1]!] = entry[2]!;
  });
  return tables;
}

describe('src/config.ts', () => {
  it('gives every variable its default when unset or empty, and parses what is set', () => {
    expect(parseConfig({})).toEqual(CONFIG_DEFAULTS);
    expect(CONFIG_DEFAULTS).toMatchObject({
      RATE_LIMIT_ANONYMOUS: 100,
      MAX_BODY_BYTES: 1024 * 1024,
      ENVIRONMENT: 'production',
      WEBHOOK_ALLOW_PRIVATE_URLS: false,
      CORS_ORIGINS: [],
    });
    const parsed = parseConfig({
      RATE_LIMIT_ANONYMOUS: '',
      MAX_BODY_BYTES: ' 2048 ',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      CORS_ORIGINS: 'https://a.test, https://b.test',
      MEDIA_BASE_URL: 'https://cdn.test/media/',
      DB: {},
    });
    expect(parsed).toMatchObject({
      RATE_LIMIT_ANONYMOUS: 100,
      MAX_BODY_BYTES: 2048,
      WEBHOOK_ALLOW_PRIVATE_URLS: true,
      CORS_ORIGINS: ['https://a.test', 'https://b.test'],
      MEDIA_BASE_URL: 'https://cdn.test/media',
    });
    expect(parsed).not.toHaveProperty('DB');
  });

  it('refuses an invalid value with an error naming the variable and what it must be', () => {
    const bad = {
      RATE_LIMIT_ANONYMOUS: '1o0',
      NOTIFICATIONS_EMAIL_PROVIDER: 'resnd',
      WEBHOOK_TIMEOUT_MS: '0',
      MEDIA_BASE_URL: 'cdn.test',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'yes',
      ORDER_NUMBER_START: '1001.5',
    };
    let error: unknown;
    try {
      parseConfig(bad);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      { name: 'RATE_LIMIT_ANONYMOUS', message: 'must be a whole number above 0, not "1o0"' },
      { name: 'ORDER_NUMBER_START', message: 'must be a whole number above 0, not "1001.5"' },
      { name: 'MEDIA_BASE_URL', message: 'must be an http(s) URL, not "cdn.test"' },
      { name: 'WEBHOOK_ALLOW_PRIVATE_URLS', message: 'must be "true" or "false", not "yes"' },
      { name: 'WEBHOOK_TIMEOUT_MS', message: 'must be a whole number above 0, not "0"' },
      { name: 'NOTIFICATIONS_EMAIL_PROVIDER', message: 'must be "outbox" or "resend", not "resnd"' },
    ]);
    expect((error as Error).message).toMatch(/^Invalid configuration \(.*\): RATE_LIMIT_ANONYMOUS must be a whole number above 0, not "1o0"; ORDER_NUMBER_START/);
  });

  it('never echoes a secret', () => {
    expect(() => parseConfig({ JWT_SECRET: { value: 'hunter2' } })).toThrow(/^Invalid configuration .*: JWT_SECRET is not a string$/);
  });

  it('parses each env object once, and a new one again', () => {
    const env = { RATE_LIMIT_ANONYMOUS: '7' };
    const first = config(env);
    env.RATE_LIMIT_ANONYMOUS = 'not read again';
    expect(config(env)).toBe(first);
    expect(() => config({ ...env })).toThrow(/RATE_LIMIT_ANONYMOUS must be a whole number above 0, not "not read again"/);
    expect(config(undefined)).toBe(CONFIG_DEFAULTS);
  });
});

describe('the variables set elsewhere agree with src/config.ts', () => {
  const tables = tomlVars(read('wrangler.toml'));

  it("wrangler.toml's [vars]: every name known, every value valid, no secret", () => {
    expect(tables.has('vars')).toBe(true);
    for (const [table, vars] of tables) {
      const unknown = Object.keys(vars).filter((name) => !CONFIG_NAMES.includes(name as never));
      expect(unknown, `[${table}] names no variable of src/config.ts`).toEqual([]);
      expect(
        Object.keys(vars).filter((name) => SECRET_NAMES.includes(name as never)),
        `[${table}] holds a secret`,
      ).toEqual([]);
      expect(() => parseConfig(vars), `[${table}]`).not.toThrow();
    }
  });

  it('the parser of this test sees wrangler.toml as it is: a typo or bad value would fail', () => {
    const toml = '[vars]\nRATE_LIMT_ANONYMOUS = "100" # typo\n[[d1_databases]]\nbinding = "DB"\n[env.staging.vars]\nMAX_BODY_BYTES = "1 MiB"\n';
    const vars = tomlVars(toml);
    expect([...vars.keys()]).toEqual(['vars', 'env.staging.vars']);
    expect(Object.keys(vars.get('vars')!).filter((name) => !CONFIG_NAMES.includes(name as never))).toEqual(['RATE_LIMT_ANONYMOUS']);
    expect(() => parseConfig(vars.get('env.staging.vars')!)).toThrow(/MAX_BODY_BYTES/);
    expect(() => tomlVars('[vars]\nMAX_BODY_BYTES = 1048576\n')).toThrow(/line 2/);
  });

  it('.dev.vars as npm run dev writes it (scripts/lib/dev-vars.mjs)', () => {
    const written = Object.fromEntries(Object.entries(DEV_VARS).map(([name, make]) => [name, (make as () => string)()]));
    expect(Object.keys(written).filter((name) => !CONFIG_NAMES.includes(name as never))).toEqual([]);
    expect(parseConfig(written)).toMatchObject({ ENVIRONMENT: 'development', WEBHOOK_ALLOW_PRIVATE_URLS: true });
  });

  it("deploy:setup's secrets are the schema's secrets", () => {
    const script = read('scripts/deploy-setup.mjs');
    const generated = /const GENERATED_SECRETS = \[([^\]]*)\]/.exec(script)![1]!.match(/[A-Z_]+/g)!;
    const optional = [.../const OPTIONAL_SECRETS = \{([^}]*)\}/.exec(script)![1]!.matchAll(/^\s*([A-Z_]+):/gm)].map((m) => m[1]);
    expect([...generated, ...optional].sort()).toEqual([...SECRET_NAMES].sort());
  });

  it("docs/deploying.md's table is the schema's", () => {
    const doc = readFileSync(CONFIG_DOC, 'utf8');
    expect(doc, 'run npm run docs:config').toBe(withConfigTable(doc));
    for (const name of CONFIG_NAMES) expect(doc).toContain(`| \`${name}\` |`);
  });
});
