import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/lib/errors';
import { login as signIn } from '../../src/modules/auth/auth.service';
import { MAX_FAILURES_FROM_ONE_ADDRESS, MAX_FAILURES_PER_ACCOUNT } from '../../src/middleware/credentials/login-lockout';
import { api, db, expectError, insertUser, TEST_PASSWORD, uid } from '../helpers';

const login = (email: string, password: string, ip: string) => api('/api/auth/login', { method: 'POST', json: { email, password }, headers: { 'CF-Connecting-IP': ip } });
const ip = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${uid()}`;

describe('POST /api/auth/login lock-outs', () => {
  it('locks an account from one address after five failures, even with the right password; other addresses still sign in', async () => {
    const { user } = await insertUser();
    const guesser = ip();
    for (let i = 1; i < MAX_FAILURES_FROM_ONE_ADDRESS; i++) expectError(await login(user.email, 'wrong guess', guesser), 401, 'AUTHENTICATION_ERROR');
    expectError(await login(user.email, 'wrong guess', guesser), 429, 'RATE_LIMITED');
    const right = await login(user.email, TEST_PASSWORD, guesser);
    expectError(right, 429, 'RATE_LIMITED');
    expect(Number(right.headers.get('Retry-After'))).toBeGreaterThan(800);
    expect(Number(right.headers.get('Retry-After'))).toBeLessThanOrEqual(900);
    expect((await login(user.email, TEST_PASSWORD, ip())).status).toBe(200);
  });

  it('locks the account itself after twenty failures spread over many addresses', async () => {
    const { user } = await insertUser();
    for (let i = 1; i < MAX_FAILURES_PER_ACCOUNT; i++) expectError(await login(user.email, 'wrong guess', ip()), 401, 'AUTHENTICATION_ERROR');
    expectError(await login(user.email, 'wrong guess', ip()), 429, 'RATE_LIMITED');
    expectError(await login(user.email, TEST_PASSWORD, ip()), 429, 'RATE_LIMITED');
  });

  it('does not count guesses an address lock refused towards the account lock: one address cannot lock the account', async () => {
    const { user } = await insertUser();
    const guesser = ip();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT + 5; i++) await login(user.email, 'wrong guess', guesser);
    expectError(await login(user.email, TEST_PASSWORD, guesser), 429, 'RATE_LIMITED');
    expect((await login(user.email, TEST_PASSWORD, ip())).status).toBe(200);
  });

  it('answers an email without an account exactly as one with an account, locked included', async () => {
    const { user } = await insertUser();
    const ghost = `ghost-${uid()}@example.test`;
    const answers = async (email: string) => {
      const seen = [];
      for (let i = 0; i < MAX_FAILURES_FROM_ONE_ADDRESS + 1; i++) {
        const res = await login(email, 'wrong guess', 'one-address');
        seen.push([res.status, res.body.error.message.replace(/\d\d:\d\d/, 'HH:MM')]);
      }
      return seen;
    };
    expect(await answers(ghost)).toEqual(await answers(user.email));
  });

  it('counts an IPv6 client per /64: five wrong passwords from one address lock its neighbours out, not the next /64', async () => {
    const { user } = await insertUser();
    const site = `2001:db8:${uid().slice(-4)}`;
    const network = `${site}:1`;
    for (let i = 1; i < MAX_FAILURES_FROM_ONE_ADDRESS; i++) expectError(await login(user.email, 'wrong guess', `${network}::${i}`), 401, 'AUTHENTICATION_ERROR');
    expectError(await login(user.email, 'wrong guess', `${network}::${MAX_FAILURES_FROM_ONE_ADDRESS}`), 429, 'RATE_LIMITED');
    expectError(await login(user.email, TEST_PASSWORD, `${network}:ab:cd:ef:1`), 429, 'RATE_LIMITED');
    expect((await login(user.email, TEST_PASSWORD, `${site}:2::1`)).status).toBe(200);
  });

  it('a successful sign-in clears the count', async () => {
    const { user } = await insertUser();
    const from = ip();
    for (let round = 0; round < 3; round++) {
      for (let i = 1; i < MAX_FAILURES_FROM_ONE_ADDRESS; i++) await login(user.email, 'wrong guess', from);
      expect((await login(user.email, TEST_PASSWORD, from)).status).toBe(200);
    }
  });
});

/** A sign-in through the service, at `now`: its status. */
const attempt = (email: string, password: string, from: string, now?: Date) =>
  signIn(db(), env, { email, password }, from, now).then(
    () => 200,
    (error: ApiError) => error.status,
  );

describe('sign-in lock-out windows', () => {
  it('a refused attempt never extends the lock; once it has ended a new window starts', async () => {
    const { user } = await insertUser();
    const from = ip();
    const start = Date.now();
    const at = (minutes: number) => new Date(start + minutes * 60_000);
    const guesses = async (minutes: number) => {
      const statuses = [];
      for (let i = 0; i < MAX_FAILURES_FROM_ONE_ADDRESS; i++) statuses.push(await attempt(user.email, 'wrong guess', from, at(minutes)));
      return statuses;
    };
    expect(await guesses(0)).toEqual([401, 401, 401, 401, 429]);
    expect(await attempt(user.email, TEST_PASSWORD, from, at(14))).toBe(429);
    expect(await guesses(16)).toEqual([401, 401, 401, 401, 429]);
    expect(await attempt(user.email, TEST_PASSWORD, from, at(30))).toBe(429);
    expect(await attempt(user.email, TEST_PASSWORD, from, at(32))).toBe(200);
  });
});

/**
 * Guesses that arrive together, as they would at many isolates at once: the service is called
 * directly, so no request waits on another's rate-limit count and every read of the lock is in
 * flight before any password has been checked (through HTTP in this one isolate they queue).
 */
describe('sign-in lock-outs under concurrent guesses', () => {
  const burst = (email: string, wrong: number, from: () => string) =>
    Promise.all([...Array.from({ length: wrong }, (_, i) => attempt(email, `wrong guess ${i}`, from())), attempt(email, TEST_PASSWORD, from())]);

  it('checks at most five passwords of a burst from one address: the right one sent last is refused', async () => {
    const { user } = await insertUser();
    const guesser = ip();
    const statuses = await burst(user.email, 29, () => guesser);
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILURES_FROM_ONE_ADDRESS - 1);
    expect(statuses.at(-1)).toBe(429);
    expect(await attempt(user.email, TEST_PASSWORD, guesser)).toBe(429);
    expect(await attempt(user.email, TEST_PASSWORD, ip())).toBe(200);
  });

  it('checks at most twenty passwords of a burst spread over many addresses: the right one sent last is refused', async () => {
    const { user } = await insertUser();
    const statuses = await burst(user.email, 29, ip);
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILURES_PER_ACCOUNT - 1);
    expect(statuses.at(-1)).toBe(429);
    expect(await attempt(user.email, TEST_PASSWORD, ip())).toBe(429);
  });
});
