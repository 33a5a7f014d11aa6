import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addresses, events, users } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, expectError, insertUser, insertVendorUser, TEST_PASSWORD, uid } from '../helpers';

const post = (key: string, json: Record<string, unknown>) => api('/api/customers', { method: 'POST', key, json });
const patch = (key: string, id: string, json: Record<string, unknown>) => api(`/api/customers/${id}`, { method: 'PATCH', key, json });
const email = (tag = uid()) => `c-${tag}@example.test`;

async function keyWith(permissions: string[]) {
  return (await createApiKey(db(), { name: `perm ${uid()}`, role: null, permissions })).key;
}

describe('phone numbers', () => {
  it('are kept and shown in the form SMS go to: without spaces, brackets or dashes, on the account and on an address', async () => {
    const { user, token } = await insertUser();
    const me = await api('/api/customers/me', { method: 'PATCH', key: token, json: { phone: '+49 30 1234567' } });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.data.phone).toBe('+49301234567');
    const row = await db().query.users.findFirst({ where: eq(users.id, user.id) });
    expect(row!.phone).toBe('+49301234567');

    const address = await api('/api/customers/me/addresses', {
      method: 'POST',
      key: token,
      json: { line1: '1 Main St', city: 'Berlin', country: 'DE', phone: ' (030) 123-4567 ' },
    });
    expect(address.status, JSON.stringify(address.body)).toBe(201);
    expect(address.body.data.phone).toBe('0301234567');
    // Still checked as typed: letters are refused, not stripped.
    expectError(await api('/api/customers/me', { method: 'PATCH', key: token, json: { phone: '+49 30 CALL-ME' } }), 422, 'VALIDATION_ERROR');
    // Separators alone are no number: they would be stored as typed, with nothing to send an SMS to.
    const dashes = await api('/api/customers/me', { method: 'PATCH', key: token, json: { phone: '(--- --)' } });
    expectError(dashes, 422, 'VALIDATION_ERROR');
    expect(dashes.body.error.details).toEqual([{ field: 'phone', code: 'invalid_value', message: 'phone must be a phone number, like +1 555 0100' }]);
  });

  it('say so in the OpenAPI document', async () => {
    const doc = (await api('/api/openapi.json')).body;
    for (const name of ['Customer', 'UpdateCustomer', 'CreateAddress']) {
      const schema = doc.components.schemas[name];
      const phone = schema?.properties?.phone;
      const description = phone?.description ?? phone?.anyOf?.find((s: { description?: string }) => s.description)?.description ?? '';
      expect(description, name).toContain('`+49301234567`');
    }
  });
});

describe('staff managing customers', () => {
  it('creates a customer with Location, emitting customer.registered, and never shows the password', async () => {
    const key = await adminKey();
    const address = email();
    const res = await post(key, { email: address.toUpperCase(), password: 'initial-password', name: 'Grace Hopper', phone: '+1 555 0100' });
    expect(res.status).toBe(201);
    const customer = res.body.data;
    expect(customer).toMatchObject({ email: address, name: 'Grace Hopper', phone: '+15550100', status: 'active' });
    expect(customer).not.toHaveProperty('role');
    expect(customer).not.toHaveProperty('passwordHash');
    expect(res.headers.get('Location')).toBe(`/api/customers/${customer.id}`);
    expect(JSON.stringify(res.body)).not.toContain('initial-password');
    const emitted = await db().select().from(events).where(eq(events.type, 'customer.registered'));
    expect(emitted.map((e) => e.data)).toContainEqual({ customerId: customer.id, email: address, name: 'Grace Hopper' });
    const login = await api('/api/auth/login', { method: 'POST', json: { email: address, password: 'initial-password' } });
    expect(login.status).toBe(200);
  });

  it('creates a customer without a password, who cannot sign in yet', async () => {
    const address = email();
    const res = await post(await adminKey(), { email: address, status: 'disabled' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'disabled', name: null, phone: null });
    const row = await db().query.users.findFirst({ where: eq(users.email, address) });
    expect(row!.passwordHash).toBeNull();
    expect(row!.roleId).toBe('customer');
  });

  it('keeps the opt-outs given at creation, and defaults them to false', async () => {
    const key = await adminKey();
    const optedOut = await post(key, { email: email(), smsOptOut: true, marketingEmailOptOut: true });
    expect(optedOut.status).toBe(201);
    expect(optedOut.body.data).toMatchObject({ smsOptOut: true, marketingEmailOptOut: true });
    const row = await db().query.users.findFirst({ where: eq(users.id, optedOut.body.data.id) });
    expect(row).toMatchObject({ smsOptOut: true, marketingEmailOptOut: true });
    const plain = await post(key, { email: email() });
    expect(plain.body.data).toMatchObject({ smsOptOut: false, marketingEmailOptOut: false });
  });

  it('refuses a duplicate email with 409 and a bad body with 422 listing every field', async () => {
    const key = await adminKey();
    const address = email();
    expect((await post(key, { email: address })).status).toBe(201);
    expectError(await post(key, { email: address.toUpperCase() }), 409, 'CONFLICT');
    const bad = await post(key, { email: 'nope', password: 'short', phone: 'call me', status: 'gone', role: 'admin' });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'password', 'phone', 'role', 'status']);
    expectError(await post(key, { name: 'No email' }), 422, 'VALIDATION_ERROR');
  });

  it('reads, updates and deletes a customer; deleting takes its addresses and retires its token', async () => {
    const key = await adminKey();
    const { user, token } = await insertUser();
    const added = await api(`/api/customers/${user.id}/addresses`, { method: 'POST', key, json: { line1: '2 Elm St', city: 'Paris', country: 'FR' } });
    expect(added.status).toBe(201);

    const read = await api(`/api/customers/${user.id}?fields=id,email`, { key });
    expect(read.body.data).toEqual({ id: user.id, email: user.email });

    const updated = await patch(key, user.id, { name: 'Renamed', phone: null, status: 'active' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id: user.id, name: 'Renamed', phone: null });
    expect(updated.body.data.updatedAt > user.updatedAt).toBe(true);

    const removed = await api(`/api/customers/${user.id}`, { method: 'DELETE', key });
    expect(removed.status).toBe(204);
    expect(removed.body).toBe('');
    expectError(await api(`/api/customers/${user.id}`, { key }), 404, 'NOT_FOUND');
    expect(await db().select().from(addresses).where(eq(addresses.userId, user.id))).toEqual([]);
    expectError(await api('/api/auth/me', { key: token }), 401, 'AUTHENTICATION_ERROR');
    expectError(await api(`/api/customers/${user.id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
  });

  it('changes the email, refusing one taken by any user with 409', async () => {
    const key = await adminKey();
    const { user } = await insertUser();
    const other = await insertUser({ role: 'admin' });
    const fresh = email();
    const res = await patch(key, user.id, { email: fresh.toUpperCase() });
    expect(res.body.data.email).toBe(fresh);
    const taken = await patch(key, user.id, { email: other.user.email });
    expectError(taken, 409, 'CONFLICT');
    expect(taken.body.error.details[0].field).toBe('email');
  });

  it('disables a customer: its token and its password stop working, and the token stays dead after re-enabling', async () => {
    const key = await adminKey();
    const { user, token, password } = await insertUser();
    expect((await patch(key, user.id, { status: 'disabled' })).body.data.status).toBe('disabled');
    expectError(await api('/api/customers/me', { key: token }), 401, 'AUTHENTICATION_ERROR');
    const signIn = () => api('/api/auth/login', { method: 'POST', json: { email: user.email, password } });
    expectError(await signIn(), 401, 'AUTHENTICATION_ERROR');

    expect((await patch(key, user.id, { status: 'active' })).body.data.status).toBe('active');
    expectError(await api('/api/customers/me', { key: token }), 401, 'AUTHENTICATION_ERROR');
    const again = await signIn();
    expect(again.status).toBe(200);
    expect((await api('/api/customers/me', { key: again.body.data.token })).status).toBe(200);
  });

  it('answers malformed bodies and parameters in the error envelope, never 500', async () => {
    const key = await adminKey();
    const { user } = await insertUser();
    for (const body of ['[]', 'null', '"text"', '42']) {
      const res = await api(`/api/customers/${user.id}`, { method: 'PATCH', key, headers: { 'Content-Type': 'application/json' }, body });
      expectError(res, 422, 'VALIDATION_ERROR');
    }
    expectError(await api(`/api/customers/${user.id}`, { method: 'PATCH', key, headers: { 'Content-Type': 'text/plain' }, body: 'name=x' }), 415, 'INVALID_REQUEST');
    expectError(await api(`/api/customers/${'x'.repeat(201)}`, { key }), 400, 'INVALID_REQUEST');
    expectError(await api(`/api/customers/${user.id}?fields=secret`, { key }), 400, 'INVALID_REQUEST');
    expectError(await api(`/api/customers/${user.id}?expand=all`, { key }), 400, 'INVALID_REQUEST');
    expect((await patch(key, user.id, {})).body.data.id).toBe(user.id);
  });

  it('does not treat other users as customers', async () => {
    const key = await adminKey();
    const { user } = await insertUser({ role: 'admin' });
    expectError(await api(`/api/customers/${user.id}`, { key }), 404, 'NOT_FOUND');
    expectError(await patch(key, user.id, { name: 'x' }), 404, 'NOT_FOUND');
    expectError(await api(`/api/customers/${user.id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
    expect((await db().query.users.findFirst({ where: eq(users.id, user.id) }))!.roleId).toBe('admin');
  });

  it('validates update bodies with 422, unknown fields included', async () => {
    const { user } = await insertUser();
    const res = await patch(await adminKey(), user.id, { email: 'bad', password: 'new-password-1', name: '' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'name', 'password']);
  });

  it('follows permissions: customers:read reads but cannot write; no permission is 403', async () => {
    const { user } = await insertUser();
    const reader = await keyWith(['customers:read']);
    expect((await api('/api/customers', { key: reader })).status).toBe(200);
    expect((await api(`/api/customers/${user.id}`, { key: reader })).status).toBe(200);
    expectError(await patch(reader, user.id, { name: 'x' }), 403, 'AUTHORIZATION_ERROR');
    expectError(await post(reader, { email: email() }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`/api/customers/${user.id}`, { method: 'DELETE', key: reader }), 403, 'AUTHORIZATION_ERROR');

    const writer = await keyWith(['customers:write']);
    expect((await api('/api/customers', { key: writer })).status).toBe(200);
    expect((await patch(writer, user.id, { name: 'By writer' })).status).toBe(200);

    const unrelated = await keyWith(['products:write']);
    expectError(await api('/api/customers', { key: unrelated }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`/api/customers/${user.id}`, { key: unrelated }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/customers/me', { key: await adminKey() }), 403, 'AUTHORIZATION_ERROR');
  });

  it('needs a credential for everything', async () => {
    const { user } = await insertUser();
    for (const [method, path] of [
      ['GET', '/api/customers'],
      ['POST', '/api/customers'],
      ['GET', `/api/customers/${user.id}`],
      ['PATCH', `/api/customers/${user.id}`],
      ['DELETE', `/api/customers/${user.id}`],
      ['GET', '/api/customers/me'],
    ] as const) {
      const res = await api(path, { method, ...(method === 'POST' || method === 'PATCH' ? { json: { name: 'x' } } : {}) });
      expectError(res, 401, 'AUTHENTICATION_ERROR');
      expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
    }
  });
});

describe('a customer and its own account', () => {
  it("reads itself by id and as 'me'", async () => {
    const { user, token } = await insertUser();
    const mine = await api('/api/customers/me', { key: token });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ id: user.id, email: user.email });
    expect((await api(`/api/customers/${user.id}`, { key: token })).body.data.id).toBe(user.id);
  });

  it('edits its own profile but not its status', async () => {
    const { user, token } = await insertUser();
    const res = await patch(token, 'me', { name: 'New Name', phone: '+33 1 23 45 67 89' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: user.id, name: 'New Name', phone: '+33123456789' });
    expectError(await patch(token, 'me', { status: 'active' }), 403, 'AUTHORIZATION_ERROR');
    expectError(await patch(token, user.id, { status: 'disabled' }), 403, 'AUTHORIZATION_ERROR');
    const row = await db().query.users.findFirst({ where: eq(users.id, user.id) });
    expect(row!.status).toBe('active');
  });

  it('cannot take an email another account uses', async () => {
    const { token } = await insertUser();
    const other = await insertUser();
    expectError(await patch(token, 'me', { email: other.user.email.toUpperCase(), currentPassword: TEST_PASSWORD }), 409, 'CONFLICT');
  });

  it('sees other customers as not found, never forbidden, and cannot list or delete', async () => {
    const { user, token } = await insertUser();
    const other = await insertUser();
    const unknown = 'user_01ZZZZZZZZZZZZZZZZZZZZZZZZ';
    for (const id of [other.user.id, unknown]) {
      const read = await api(`/api/customers/${id}`, { key: token });
      expectError(read, 404, 'NOT_FOUND');
      expectError(await patch(token, id, { name: 'Hijack' }), 404, 'NOT_FOUND');
      expectError(await api(`/api/customers/${id}`, { method: 'DELETE', key: token }), 404, 'NOT_FOUND');
    }
    // The same answer for someone else's id and an id that does not exist: nothing to probe.
    const a = await api(`/api/customers/${other.user.id}`, { key: token });
    expect(a.body.error.message).toBe(`Customer '${other.user.id}' not found`);
    expectError(await api('/api/customers', { key: token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await post(token, { email: email() }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/customers/me', { method: 'DELETE', key: token }), 403, 'AUTHORIZATION_ERROR');
    expect((await db().query.users.findFirst({ where: eq(users.id, other.user.id) }))!.name).toBe(other.user.name);
    expect(user.id).not.toBe(other.user.id);
  });

  it('a vendor user reaches no customer', async () => {
    const { token } = await insertVendorUser();
    const { user } = await insertUser();
    expectError(await api(`/api/customers/${user.id}`, { key: token }), 404, 'NOT_FOUND');
    expectError(await api('/api/customers', { key: token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/customers/me', { key: token }), 404, 'NOT_FOUND');
  });
});
