// The storefront's settings. `npm run storefront` serves its own /config.js, made from the
// environment (STORE_API_URL, STORE_PUBLISHABLE_KEY, STRIPE_PUBLISHABLE_KEY), instead of this file;
// edit this one when you host the files elsewhere.
export default {
  // The store's URL, without /api. Its allowed origins must include this page's origin.
  apiUrl: 'http://127.0.0.1:8787',
  // A publishable key (pk_...), sent as `Authorization: Bearer` while no customer is signed in.
  // Empty: the storefront calls the API anonymously (public catalogue, guest carts).
  publishableKey: '',
  // Stripe's publishable key (pk_test_...): offers card payments with Stripe Elements to signed-in
  // customers. Empty: manual payment (bank transfer) only.
  stripePublishableKey: '',
};
