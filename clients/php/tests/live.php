<?php

// The live scenario of the PHP client against a running Worker:
//
//   STORE_API_BASE=http://127.0.0.1:8787 STORE_API_KEY=sk_... php clients/php/tests/live.php
//
// STORE_API_KEY is an admin API key. The Worker should run with RATE_LIMIT_ANONYMOUS=10,
// RATE_LIMIT_WINDOW_SECONDS=2 and WEBHOOK_ALLOW_PRIVATE_URLS=true (npm run test:clients does that).
// Everything it creates has unique names, so it can run again, or after the other clients, on the
// same Worker. Prints one line per check and, last, "N passed, N failed"; exits 1 on any failure.

declare(strict_types=1);

require_once __DIR__ . '/lib.php';

use StoreApi\Client;
use StoreApi\Exception\ApiException;
use StoreApi\Exception\AuthorizationException;
use StoreApi\Exception\InvalidRequestException;
use StoreApi\Exception\NotFoundException;
use StoreApi\Exception\ValidationException;
use StoreApi\Page;
use StoreApi\Webhook;

$base = getenv('STORE_API_BASE') ?: '';
$key = getenv('STORE_API_KEY') ?: '';
if ($base === '' || $key === '') {
    fwrite(STDERR, "Set STORE_API_BASE (e.g. http://127.0.0.1:8787) and STORE_API_KEY (an admin sk_... key).\n");
    echo "0 passed, 1 failed\n";
    exit(1);
}

$unique = strtolower(date('His') . bin2hex(random_bytes(3)));
/** @var list<array<string, mixed>> $retries every retry of every client, for the report */
$retries = [];
$options = static function (array $extra = []) use (&$retries): array {
    return $extra + [
        // Anonymous calls share one small bucket (10 per 2 s): retrying 429 carries the scenario.
        'maxRetries' => 8,
        'maxRetryWait' => 10,
        'timeout' => 30,
        'onRetry' => static function (array $r) use (&$retries): void {
            $retries[] = $r;
        },
    ];
};
$admin = new Client($base, $options(['apiKey' => $key]));
$anonymous = new Client($base, $options());

$state = [];

T::section('catalogue as admin', function () use ($admin, $unique, &$state): void {
    $category = $admin->categories->create(['name' => "PHP client $unique", 'slug' => "php-client-$unique"]);
    T::check('categories.create returns the category', is_string($category['id'] ?? null) && ($category['slug'] ?? null) === "php-client-$unique");

    $product = $admin->products->create([
        'name' => "PHP tote $unique",
        'slug' => "php-tote-$unique",
        'price' => 19.99,
        'status' => 'active',
        'categoryIds' => [$category['id']],
        'variants' => [['sku' => "PHP-$unique-M", 'name' => 'Medium', 'options' => ['size' => 'M'], 'price' => 19.99, 'stock' => 25]],
    ]);
    T::check('products.create returns an active product', ($product['status'] ?? null) === 'active' && is_string($product['id'] ?? null));
    $variant = $admin->products->variants->create($product['id'], ['sku' => "PHP-$unique-L", 'name' => 'Large', 'options' => ['size' => 'L'], 'price' => 24.5, 'stock' => 10]);
    T::check('products.variants.create adds a variant with stock', ($variant['stock'] ?? null) === 10 && ($variant['price'] ?? null) == 24.5);

    $cheap = $admin->products->create(['name' => "PHP pin $unique", 'slug' => "php-pin-$unique", 'price' => 2.5, 'status' => 'active', 'categoryIds' => [$category['id']], 'stock' => 5]);
    $state += ['category' => $category, 'product' => $product, 'variant' => $variant, 'cheap' => $cheap];
});

T::section('lists, sorting, fields and pagination', function () use ($admin, $anonymous, &$state): void {
    if (!isset($state['category'])) {
        T::check('catalogue data exists', false, 'skipped: the catalogue step failed');
        return;
    }
    $page = $admin->products->list(['category' => $state['category']['slug'], 'sort' => 'price:desc', 'fields' => 'id,name,variants(id,price)']);
    T::check('products.list returns a Page', $page instanceof Page);
    T::same('both products of the category, dearest first', [$state['product']['id'], $state['cheap']['id']], array_column($page->data, 'id'));
    $keys = array_map(static fn (array $p): array => array_keys($p), $page->data);
    T::check('only the selected fields came back', $keys !== [] && array_reduce($keys, static fn (bool $ok, array $k): bool => $ok && $k === ['id', 'name', 'variants'], true), T::show($keys));
    $variantKeys = array_map(static fn (array $v): array => array_keys($v), $page->data[0]['variants'] ?? []);
    T::check('nested selection: variants(id,price)', count($variantKeys) === 2 && $variantKeys[0] === ['id', 'price'] && $variantKeys[1] === ['id', 'price'], T::show($variantKeys));
    T::same('pagination says how many', 2, $page->total());
    $faceted = $admin->products->list(['category' => $state['category']['slug'], 'facets' => 'category,price', 'fields' => 'id']);
    $ours = array_values(array_filter($faceted->facets['category'] ?? [], static fn (array $c): bool => $c['id'] === $state['category']['id']));
    T::same('facets come beside the page', 2, $ours[0]['count'] ?? null);
    T::same('no facets unless asked for', null, $page->facets);
    $dear = $admin->products->list(['category' => $state['category']['id'], 'price_min' => 10.5, 'price_max' => 1000.0, 'fields' => ['id', 'price']]);
    T::same('number filters (price_min 10.5)', [$state['product']['id']], array_column($dear->data, 'id'));

    $all = iterator_to_array($admin->products->iterate(['category' => $state['category']['id'], 'sort' => 'price:desc', 'limit' => 1, 'fields' => ['id']]), false);
    T::same('iterate() walks every page (limit 1)', [$state['product']['id'], $state['cheap']['id']], array_column($all, 'id'));

    $one = $anonymous->products->get($state['product']['id']);
    T::check('products.get, anonymously', ($one['id'] ?? null) === $state['product']['id'] && count($one['variants'] ?? []) === 2);

    $png = base64_decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==');
    $media = $admin->products->media->create($state['product']['id'], $png, ['alt' => 'Front']);
    T::same('an uploaded image is typed from its bytes', ['image/png', 1, 1, 'Front'], [$media['contentType'] ?? null, $media['width'] ?? null, $media['height'] ?? null, $media['alt'] ?? null]);
    T::same('and served back unchanged', $png, file_get_contents($media['url']));
});

T::section('guest cart and idempotent checkout', function () use ($base, $options, $unique, &$state): void {
    if (!isset($state['variant'])) {
        T::check('catalogue data exists', false, 'skipped: the catalogue step failed');
        return;
    }
    $guest = new Client($base, $options());
    $cart = $guest->carts->create(['currency' => 'USD']);
    T::check('carts.create answers the cart token once', is_string($cart['token'] ?? null) && str_starts_with($cart['token'], 'ct_'));
    $guest->setCartToken($cart['token']);
    $cart = $guest->carts->lines->add($cart['id'], ['variantId' => $state['variant']['id'], 'quantity' => 2]);
    T::same('a line of 2 is in the cart', 2, $cart['lines'][0]['quantity'] ?? null);

    $body = ['email' => "guest-$unique@example.com", 'shippingAddress' => ['line1' => '1 Main St', 'city' => 'Berlin', 'country' => 'DE']];
    $idempotencyKey = 'php-checkout-' . $unique;
    $order = $guest->carts->checkout($cart['id'], $body, $idempotencyKey);
    T::check('checkout places an order', is_string($order['id'] ?? null) && str_starts_with($order['id'], 'ord_'), T::show($order));
    $again = $guest->carts->checkout($cart['id'], $body, $idempotencyKey);
    T::same('the same Idempotency-Key replays the same order', $order['id'] ?? 'first', $again['id'] ?? 'second');
    $state['order'] = $order;
});

T::section('customer sign-up, sign-in and me', function () use ($base, $options, $unique): void {
    $customer = new Client($base, $options());
    $email = "php-$unique@example.com";
    $password = 'correct horse ' . $unique;
    $session = $customer->auth->register(['email' => $email, 'password' => $password, 'name' => 'PHP Customer']);
    T::check('auth.register answers a session', is_string($session['token'] ?? null) && ($session['user']['email'] ?? null) === $email);
    $session = $customer->auth->login(['email' => $email, 'password' => $password]);
    T::check('auth.login answers a token', is_string($session['token'] ?? null));
    $customer->setToken($session['token']);
    $me = $customer->auth->me();
    T::check('auth.me with the token is the customer', ($me['email'] ?? $me['user']['email'] ?? null) === $email, T::show($me));
});

T::section('storefront in a browser: a publishable key', function () use ($admin, $base, $options, $unique, &$state): void {
    if (!isset($state['variant'])) {
        T::check('catalogue data exists', false, 'skipped: the catalogue step failed');
        return;
    }
    $shop = 'https://shop.example';
    $minted = $admin->apiKeys->create(['name' => "PHP storefront $unique", 'type' => 'publishable', 'allowedOrigins' => [$shop]]);
    T::check('apiKeys.create mints a pk_ key', str_starts_with($minted['key'] ?? '', 'pk_') && ($minted['type'] ?? null) === 'publishable');
    // A browser on the shop's origin sends Origin; another origin is refused.
    $browser = new Client($base, $options(['publishableKey' => $minted['key'], 'headers' => ['Origin' => $shop]]));
    $page = $browser->products->list(['category' => $state['category']['slug']]);
    T::same('products.list with the publishable key', 2, $page->total());
    $cart = $browser->carts->create();
    T::check('carts.create makes a guest cart', str_starts_with($cart['token'] ?? '', 'ct_'));
    $browser->setCartToken($cart['token']);
    $cart = $browser->carts->lines->add($cart['id'], ['variantId' => $state['variant']['id'], 'quantity' => 1]);
    T::same('... and a line goes in', 1, count($cart['lines'] ?? []));
    $elsewhere = new Client($base, $options(['publishableKey' => $minted['key'], 'headers' => ['Origin' => 'https://evil.example']]));
    T::throws('another origin is refused (403)', AuthorizationException::class, fn () => $elsewhere->products->list());
    $email = "php-pk-$unique@example.com";
    $session = $browser->auth->register(['email' => $email, 'password' => 'correct horse ' . $unique, 'name' => 'PHP Shopper']);
    $browser->setToken($session['token']);
    $me = $browser->auth->me();
    T::same('a signed-in shopper sends its token instead', $email, $me['email'] ?? null);
    $browser->setToken(null);
    T::throws('signed out, the publishable key reaches no account (403)', AuthorizationException::class, fn () => $browser->auth->me());
});

T::section('storefront on a server: a storefront:buyer-ip key with buyerIp', function () use ($admin, $base, $unique): void {
    $minted = $admin->apiKeys->create(['name' => "PHP server $unique", 'permissions' => ['storefront:buyer-ip']]);
    $seen = [];
    $curl = new \StoreApi\CurlTransport();
    $recording = static function (string $method, string $url, array $headers, ?string $body, array $opts = []) use ($curl, &$seen): array {
        $response = $curl($method, $url, $headers, $body, $opts);
        $seen[] = [$response['status'], $headers['x-buyer-ip'] ?? null, (int) ($response['headers']['x-ratelimit-limit'] ?? 0), (int) ($response['headers']['x-ratelimit-remaining'] ?? -1)];
        return $response;
    };
    $group = static fn (): string => dechex(random_int(0, 0xffff));
    [$first, $second] = ["2001:db8:{$group()}:{$group()}::1", "2001:db8:{$group()}:{$group()}::2"];
    $server = new Client($base, ['apiKey' => $minted['key'], 'buyerIp' => $first, 'maxRetries' => 0, 'transport' => $recording]);
    $server->products->list(['limit' => 1]);
    $server->products->list(['limit' => 1]);
    $server->withBuyerIp($second)->products->list(['limit' => 1]);
    $limit = $seen[0][2] ?? 0;
    T::check('the authenticated limit applies', $limit > 2, T::show($seen));
    // The second shopper starts afresh (not the key's count). The first one's count went down, unless
    // the test Worker's two-second window passed between its requests (a loaded machine).
    T::same('200s, each with its shopper', [[200, $first], [200, $first], [200, $second]], array_map(static fn (array $s): array => [$s[0], $s[1]], $seen));
    T::same('the second shopper starts afresh', $limit - 1, $seen[2][3] ?? null);
    T::check("the first shopper's count goes down (or its window passed)", ($seen[0][3] ?? null) === $limit - 1 && in_array($seen[1][3] ?? null, [$limit - 2, $limit - 1], true), T::show($seen));
});

T::section('an admin call with the API key', function () use ($admin, &$state): void {
    $orders = $admin->orders->list(['limit' => 100, 'sort' => 'createdAt:desc']);
    T::check('orders.list answers a Page', $orders instanceof Page && $orders->total() !== null);
    if (isset($state['order'])) {
        T::check('the guest\'s order is listed', in_array($state['order']['id'], array_column($orders->data, 'id'), true));
    }
});

T::section('typed errors', function () use ($admin, $anonymous): void {
    $e = T::throws('a missing product is NotFoundException', NotFoundException::class, fn () => $anonymous->products->get('prod_nope'));
    if ($e instanceof ApiException) {
        T::same('... code', 'NOT_FOUND', $e->getErrorCode());
        T::same('... status', 404, $e->getStatus());
        T::check('... with the request id', is_string($e->getRequestId()) && $e->getRequestId() !== '');
    }
    $e = T::throws('an invalid product is ValidationException', ValidationException::class, fn () => $admin->products->create(['name' => '', 'price' => -1]));
    if ($e instanceof ApiException) {
        T::same('... code', 'VALIDATION_ERROR', $e->getErrorCode());
        T::same('... status', 422, $e->getStatus());
        T::check('... details name the fields', is_array($e->getDetails()) && array_intersect(['name', 'price'], array_column($e->getDetails(), 'field')) === ['name', 'price'], T::show($e->getDetails()));
        T::check('... with the request id', is_string($e->getRequestId()) && $e->getRequestId() !== '');
    }
});

T::section('errors in the version the client was generated for and in 2026-11-20', function () use ($base, $key, $options): void {
    // The admin key was minted on the store's default (2026-11-20): the header the client sends wins over it.
    foreach ([null, '2026-11-20'] as $version) {
        $client = new Client($base, $options(['apiKey' => $key, 'storeVersion' => $version]));
        $expected = $version ?? Client::STORE_VERSION;
        T::same("[$expected] the client sends it", $expected, $client->getStoreVersion());
        $e = T::throws("[$expected] limit=100000 is InvalidRequestException", InvalidRequestException::class, fn () => $client->products->list(['limit' => 100000]));
        if ($e instanceof ApiException) {
            T::same("[$expected] ... answered in it", $expected, $e->getHeaders()['store-version'] ?? null);
            $details = $e->getDetails();
            T::check("[$expected] ... details[0] is the limit", count($details) === 1 && $details[0]->field === 'limit' && str_starts_with($details[0]->message, 'limit '), T::show($details));
            echo "# [$expected] details read as ", json_encode($details), "\n";
        }
        $e = T::throws("[$expected] an invalid product is ValidationException", ValidationException::class, fn () => $client->products->create(['name' => '', 'price' => -1]));
        if ($e instanceof ApiException) {
            T::same("[$expected] ... answered in it", $expected, $e->getHeaders()['store-version'] ?? null);
            T::same("[$expected] ... details name the fields", ['name', 'price'], array_column($e->getDetails(), 'field'));
        }
    }
});

T::section('429: retried until served', function () use ($base, $options): void {
    $burst = new Client($base, $options());
    $served = 0;
    for ($i = 0; $i < 15; $i++) {
        $page = $burst->products->list(['limit' => 1, 'page' => $i + 1]);
        if ($page instanceof Page) {
            $served++;
        }
    }
    T::same('all 15 anonymous requests were served', 15, $served);
    T::check('the client retried at least once', $burst->getRetryCount() >= 1, 'retries: ' . $burst->getRetryCount());
});

T::section('a signed webhook delivery', function () use ($admin, $unique): void {
    $dir = temp_dir('store-php-receiver-');
    $receiver = new PhpServer(__DIR__ . '/fixtures/receiver.php', ['RECEIVER_DIR' => $dir]);
    $endpoint = null;
    try {
        $endpoint = $admin->webhooks->create(['url' => $receiver->base . '/hook', 'events' => ['*'], 'description' => "PHP client live test $unique"]);
        $secret = $endpoint['secret'] ?? '';
        T::check('webhooks.create answers the secret once', str_starts_with($secret, 'whsec_'));
        $active = array_column(iterator_to_array($admin->webhooks->iterate(['active' => true, 'limit' => 100]), false), 'id');
        $inactive = array_column(iterator_to_array($admin->webhooks->iterate(['active' => false, 'limit' => 100]), false), 'id');
        T::check('a boolean filter (active=true / active=false)', in_array($endpoint['id'], $active, true) && !in_array($endpoint['id'], $inactive, true));
        $delivery = $admin->webhooks->test($endpoint['id']);
        T::check('webhooks.test queues a ping', is_string($delivery['id'] ?? null), T::show($delivery));

        $record = null;
        $until = microtime(true) + 20;
        while ($record === null && microtime(true) < $until) {
            foreach (glob($dir . '/*.json') ?: [] as $file) {
                $candidate = json_decode((string) file_get_contents($file), true);
                if (is_array($candidate) && str_contains((string) base64_decode($candidate['body']), '"ping"')) {
                    $record = $candidate;
                    break;
                }
            }
            if ($record === null) {
                usleep(200_000);
            }
        }
        if (!T::check('the receiver got the delivery within 20 s', $record !== null)) {
            return;
        }
        $body = (string) base64_decode($record['body']);
        $headers = $record['headers'];
        T::check('Webhook::verify accepts it', Webhook::verify($body, $headers, $secret));
        T::check('... by X-Store-Signature alone', Webhook::verifyStoreSignature($body, Webhook::header($headers, 'X-Store-Signature'), $secret));
        T::check('... and by the Standard Webhooks headers alone', Webhook::verifyStandard($body, $headers, $secret));
        T::check('a tampered body is refused', !Webhook::verify(str_replace('"ping"', '"pong"', $body), $headers, $secret));
        T::check('another secret is refused', !Webhook::verify($body, $headers, 'whsec_' . base64_encode(random_bytes(24))));
        T::same('the delivery id is the test delivery', $delivery['id'], Webhook::deliveryId($headers));
    } finally {
        $receiver->stop();
        if (is_array($endpoint) && isset($endpoint['id'])) {
            try {
                $admin->webhooks->delete($endpoint['id']);
            } catch (\Throwable) {
                // best effort
            }
        }
    }
});

$reasons = array_count_values(array_map(static fn (array $r): string => (string) $r['reason'], $retries));
echo '# retries: ' . (count($retries) ? json_encode($reasons) : 'none') . "\n";
T::finish();
