import { describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/users/users.service';
import { api, db, insertUser, uid } from '../helpers';
import { orderRow, placeTestOrder } from '../commerce/order-fixtures';
import { confirmIntent, deliver, signedEvent, stripeRefunds } from '../payments/stripe-fake';
import { csrfIn, get, post, signIn } from './panel-client';

// The order page of the panel shows each payment's provider and its Stripe PaymentIntent (linked to
// the Stripe dashboard), and refunds a Stripe payment through Stripe.

async function adminSession() {
  const email = `stripe-admin-${uid()}@example.com`;
  await createUser(db(), { email, password: 'correct horse battery', roleId: 'admin', vendorId: null });
  return (await signIn(email, 'correct horse battery')).session;
}

describe('admin: stripe payments on the order page', () => {
  it('shows the provider and links the PaymentIntent; a refund goes through Stripe and is listed', async () => {
    const { user, token } = await insertUser();
    const { order } = await placeTestOrder({ customer: user.id, price: 30 });
    const started = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key: token, json: { provider: 'stripe' } });
    const payment = started.body.data;
    await deliver(await signedEvent('payment_intent.succeeded', await confirmIntent(payment.providerReference)));

    const session = await adminSession();
    const page = await get(`/admin/orders/${order.id}`, session);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('<td>stripe</td>');
    // The tests' key is a test-mode key (sk_test_...): the link opens Stripe's test dashboard.
    expect(page.html).toContain(`href="https://dashboard.stripe.com/test/payments/${payment.providerReference}"`);
    expect(page.html).toContain('Refund through stripe');

    const refunded = await post(`/admin/orders/${order.id}/payments/${payment.id}/refund`, { _csrf: csrfIn(page.html), amount: '12.5', reason: 'Damaged in transit' }, session);
    expect(refunded.res.status).toBe(303);
    const [atStripe, ...more] = await stripeRefunds(payment.providerReference);
    expect(more).toHaveLength(0);
    expect(atStripe).toMatchObject({ amount: 1250 });
    expect(await orderRow(order.id)).toMatchObject({ amountRefunded: 1250 });
    const after = await get(`/admin/orders/${order.id}`, session);
    expect(after.html).toContain('aria-label="Refunds"');
    expect(after.html).toContain(atStripe!.id);
    expect(after.html).toContain('Damaged in transit');
  });
});
