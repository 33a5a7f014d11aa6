import { describe, expect, it } from 'vitest';
import { MAX_FAILURES_FROM_ONE_ADDRESS, MAX_FAILURES_PER_ACCOUNT } from '../../src/modules/auth/login-lockout';
import { api, expectError, insertUser, TEST_PASSWORD, uid } from '../helpers';

const login = (email: string, password: string, ip: string) =>
  api('/api/auth/login', { method: 'POST', json: { email, password }, headers: { 'CF-Connecting-IP': ip } });
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
