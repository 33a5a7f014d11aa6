<?php

// Unit tests of the PHP client, no network beyond a local fake server: `php clients/php/tests/unit.php`.
// Prints one line per check and, last, "N passed, N failed"; exits 1 on any failure.

declare(strict_types=1);

require_once __DIR__ . '/lib.php';

use StoreApi\Client;
use StoreApi\ErrorDetail;
use StoreApi\Exception\ApiException;
use StoreApi\Exception\AuthenticationException;
use StoreApi\Exception\AuthorizationException;
use StoreApi\Exception\ConflictException;
use StoreApi\Exception\ConnectionException;
use StoreApi\Exception\InternalErrorException;
use StoreApi\Exception\InvalidRequestException;
use StoreApi\Exception\NotFoundException;
use StoreApi\Exception\RateLimitedException;
use StoreApi\Exception\StoreApiException;
use StoreApi\Exception\ValidationException;
use StoreApi\Page;
use StoreApi\Exception\WebhookVerificationException;
use StoreApi\Generated\Events;
use StoreApi\Webhook;
use StoreApi\WebhookHandler;

// ---------------------------------------------------------------------------------------------
T::section('webhook verification', function (): void {
    // Vectors computed outside this library (Node's crypto module), and again here with hash_hmac.
    $secret = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';
    $body = '{"id":"evt_1","event":"ping","data":{"n":1.5,"s":"hé"}}';
    $hex = '546873b0a5c6421be083ea1183b6f188fb9f01950c561acf542082ca1dad9a19';
    $ts = 1767323045;
    $std = 'zOQ/Tm3UoEQ5jh8ouLjbaZXiGwWyC+hH48WvAMKXTZg=';
    T::same('the fixed vector is the hex HMAC keyed with the whole secret', $hex, hash_hmac('sha256', $body, $secret));
    T::same('the fixed Standard Webhooks vector is keyed with the decoded secret', $std, base64_encode(hash_hmac('sha256', "whd_1.$ts.$body", base64_decode(substr($secret, 6)), true)));

    T::check('X-Store-Signature verifies', Webhook::verify($body, ['X-Store-Signature' => $hex], $secret));
    T::check('header names are case-insensitive', Webhook::verify($body, ['x-store-signature' => $hex], $secret));
    T::check('header values may be lists (PSR-7 getHeaders())', Webhook::verify($body, ['X-STORE-SIGNATURE' => [$hex]], $secret));
    T::check('upper-case hex and surrounding spaces are accepted', Webhook::verify($body, ['X-Store-Signature' => ' ' . strtoupper($hex) . ' '], $secret));
    T::check('a tampered body is refused', !Webhook::verify($body . ' ', ['X-Store-Signature' => $hex], $secret));
    T::check('another secret is refused', !Webhook::verify($body, ['X-Store-Signature' => $hex], 'whsec_b3RoZXI=' ));
    T::check('a truncated signature is refused', !Webhook::verify($body, ['X-Store-Signature' => substr($hex, 0, 62)], $secret));
    T::check('a non-hex signature is refused', !Webhook::verify($body, ['X-Store-Signature' => str_repeat('zz', 32)], $secret));
    T::check('no signature header at all is refused', !Webhook::verify($body, ['Content-Type' => 'application/json'], $secret));
    T::check('X-Store-Signature-Previous verifies during a rotation', Webhook::verify($body, ['X-Store-Signature' => str_repeat('0', 64), 'X-Store-Signature-Previous' => $hex], $secret));
    T::check('the old and the new secret may both be given', Webhook::verify($body, ['X-Store-Signature' => $hex], ['whsec_bmV3', $secret]));

    $headers = ['webhook-id' => 'whd_1', 'webhook-timestamp' => (string) $ts, 'webhook-signature' => "v1,$std"];
    T::check('Standard Webhooks headers verify', Webhook::verify($body, $headers, $secret, 300, $ts + 10));
    T::check('Standard Webhooks: any header case', Webhook::verify($body, ['Webhook-Id' => 'whd_1', 'WEBHOOK-TIMESTAMP' => (string) $ts, 'Webhook-Signature' => "v1,$std"], $secret, 300, $ts));
    T::check('Standard Webhooks: 300 s off is still within tolerance', Webhook::verify($body, $headers, $secret, 300, $ts - 300));
    T::check('Standard Webhooks: 301 s off is refused', !Webhook::verify($body, $headers, $secret, 300, $ts + 301));
    T::check('Standard Webhooks: a wider tolerance accepts it', Webhook::verify($body, $headers, $secret, 400, $ts + 301));
    T::check('Standard Webhooks: a tampered body is refused', !Webhook::verify($body . 'x', $headers, $secret, 300, $ts));
    T::check('Standard Webhooks: another id is refused', !Webhook::verify($body, ['webhook-id' => 'whd_2'] + $headers, $secret, 300, $ts));
    T::check('Standard Webhooks: one matching v1 entry among others is enough', Webhook::verify($body, ['webhook-signature' => 'v2,' . $std . ' v1,AAAA v1,' . $std] + $headers, $secret, 300, $ts));
    T::check('Standard Webhooks: only v1 entries count', !Webhook::verify($body, ['webhook-signature' => "v1a,$std v2,$std"] + $headers, $secret, 300, $ts));
    T::check('Standard Webhooks: unpadded base64 is accepted (as atob does)', Webhook::verify($body, ['webhook-signature' => 'v1,' . rtrim($std, '=')] + $headers, $secret, 300, $ts));
    T::check('Standard Webhooks: misplaced padding is refused', !Webhook::verify($body, ['webhook-signature' => 'v1,' . $std . '='] + $headers, $secret, 300, $ts));
    T::check('Standard Webhooks: a non-numeric timestamp is refused', !Webhook::verify($body, ['webhook-timestamp' => "{$ts}.0"] + $headers, $secret, 300, $ts));
    T::check('Standard Webhooks: a missing webhook-id is refused', !Webhook::verify($body, ['webhook-timestamp' => (string) $ts, 'webhook-signature' => "v1,$std"], $secret, 300, $ts));
    T::check('Standard Webhooks: the timestamp is judged against the clock by default', !Webhook::verify($body, $headers, $secret));
    $now = time();
    $fresh = ['webhook-id' => 'whd_9', 'webhook-timestamp' => (string) $now, 'webhook-signature' => 'v1,' . base64_encode(hash_hmac('sha256', "whd_9.$now.$body", base64_decode(substr($secret, 6)), true))];
    T::check('Standard Webhooks: a fresh delivery verifies against the clock', Webhook::verify($body, $fresh, $secret));
    T::check('a bad X-Store-Signature with good Standard Webhooks headers verifies (either scheme)', Webhook::verify($body, ['X-Store-Signature' => str_repeat('0', 64)] + $fresh, $secret));
    T::same('deliveryId prefers X-Store-Delivery', 'whd_A', Webhook::deliveryId(['X-Store-Delivery' => 'whd_A', 'webhook-id' => 'whd_B']));
    T::same('deliveryId falls back to webhook-id', 'whd_B', Webhook::deliveryId(['Webhook-Id' => 'whd_B']));
    T::throws('an empty secret is the caller\'s mistake', \InvalidArgumentException::class, fn () => Webhook::verify($body, [], ''));
    T::throws('a secret that is not base64 cannot check Standard Webhooks', \InvalidArgumentException::class, fn () => Webhook::verify($body, $headers, 'whsec_not base64!', 300, $ts));
});

// ---------------------------------------------------------------------------------------------
T::section('typed events', function (): void {
    $secret = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=';
    $old = 'whsec_b2xkLXNlY3JldC1vZi10aGUtcGFzdA==';
    $body = '{"id":"evt_1","event":"order.placed","data":{"orderId":"ord_1","orderNumber":1001,"customerId":null,"email":"a@example.com","total":42.5,"currency":"EUR","status":"pending"},"timestamp":"2026-01-02T03:04:05.000Z"}';
    $signed = fn (string $b, string $s = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY='): array => ['X-Store-Signature' => hash_hmac('sha256', $b, $s)];

    $last = null;
    $applied = [];
    foreach ([['sequence' => 1], ['sequence' => 3], ['sequence' => 2], ['sequence' => 3], ['sequence' => null]] as $candidate) {
        if (!Webhook::isNewerEvent($candidate, $last)) {
            continue;
        }
        $applied[] = $candidate['sequence'];
        if ($candidate['sequence'] !== null) {
            $last = $candidate['sequence'];
        }
    }
    T::same('isNewerEvent skips an older sequence arriving late, and a repeat', [1, 3, null], $applied);
    $event = Webhook::constructEvent($body, $signed($body), $secret);
    T::same('constructEvent returns the verified body', ['order.placed', 1001], [$event['event'], $event['data']['orderNumber']]);
    T::same('either secret of a rotation verifies', 'evt_1', Webhook::constructEvent($body, $signed($body, $old), [$secret, $old])['id']);
    T::throws('a bad signature throws WebhookVerificationException', WebhookVerificationException::class, fn () => Webhook::constructEvent($body, $signed($body, $old), $secret));
    T::throws('a verified body that is not an event throws too', WebhookVerificationException::class, fn () => Webhook::constructEvent('[1]', $signed('[1]'), $secret));
    T::check('Events::TYPES lists every kind and ping', in_array('order.placed', Events::TYPES, true) && in_array('ping', Events::TYPES, true));

    $seen = [];
    $hooks = (new WebhookHandler($secret))
        ->on('order.placed', function (array $event) use (&$seen): void {
            $seen[] = $event['data']['orderId'];
        })
        ->on('payment.failed', function (): void {
            throw new \RuntimeException('database down');
        });
    T::same('handle answers 400 to a bad signature and runs nothing', [400, []], [$hooks->handle($body, $signed($body, $old)), $seen]);
    T::same('handle runs the kind\'s function and answers 200', [200, ['ord_1']], [$hooks->handle($body, $signed($body)), $seen]);
    $later = '{"id":"evt_2","event":"order.teleported","data":{},"timestamp":"2026-01-02T03:04:05.000Z"}';
    T::same('a kind without a function is acknowledged', 200, $hooks->handle($later, $signed($later)));
    $failing = '{"id":"evt_3","event":"payment.failed","data":{},"timestamp":"2026-01-02T03:04:05.000Z"}';
    T::throws('a function\'s exception propagates (the store retries the 500)', \RuntimeException::class, fn () => $hooks->handle($failing, $signed($failing)));
    T::throws('an unknown kind cannot be registered', \InvalidArgumentException::class, fn () => $hooks->on('order.exploded', fn () => null));
});

T::section('error mapping', function (): void {
    $envelope = json_encode(['success' => false, 'error' => ['code' => 'VALIDATION_ERROR', 'message' => 'Invalid body', 'details' => [['field' => 'price', 'code' => 'too_small', 'message' => 'price must be 0 or more']]]]);
    $e = ApiException::fromResponse(422, ['X-Request-Id' => 'req_123', 'Content-Type' => 'application/json'], $envelope);
    T::check('VALIDATION_ERROR is a ValidationException', $e instanceof ValidationException);
    T::check('... and an ApiException, a StoreApiException and a RuntimeException', $e instanceof ApiException && $e instanceof StoreApiException && $e instanceof \RuntimeException);
    T::same('error code', 'VALIDATION_ERROR', $e->getErrorCode());
    T::same('HTTP status', 422, $e->getStatus());
    T::same('PHP code is the HTTP status', 422, $e->getCode());
    T::same('message', 'Invalid body', $e->getMessage());
    T::check('details are ErrorDetail objects', $e->getDetails()[0] instanceof ErrorDetail && $e->getDetails()[0]->field === 'price' && $e->getDetails()[0]->code === 'too_small');
    T::same('a detail reads back as the API sent it', '{"field":"price","code":"too_small","message":"price must be 0 or more"}', json_encode($e->getDetails()[0]));
    $detailsOf = fn (mixed $raw) => json_encode(ApiException::fromResponse(400, [], json_encode(['success' => false, 'error' => ['code' => 'INVALID_REQUEST', 'message' => 'Bad', 'details' => $raw]]))->getDetails());
    T::same('no details is an empty list', '[]', $detailsOf(null));
    T::same('a string is no details', '[]', $detailsOf('limit'));
    T::same(
        "2026-11-20's one object {field, issue, code, message} is a list of one entry",
        '[{"field":"limit","code":"too_big","message":"limit must be a whole number from 1 to 100"}]',
        $detailsOf(['field' => 'limit', 'issue' => 'must be a whole number from 1 to 100', 'code' => 'too_big', 'message' => 'limit must be a whole number from 1 to 100']),
    );
    T::same(
        '... without code and message (as the published specification shows it): invalid_value, and "<field> <issue>"',
        '[{"field":"Store-Version","code":"invalid_value","message":"Store-Version is not a version of this API"}]',
        $detailsOf(['field' => 'Store-Version', 'issue' => 'is not a version of this API']),
    );
    T::same('... an issue about no one field is the message', '[{"code":"invalid_value","message":"is too large"}]', $detailsOf(['issue' => 'is too large']));
    T::same('... nothing to say: no entry', '[]', $detailsOf(['field' => 'limit']));
    $published = ApiException::fromResponse(400, ['Store-Version' => '2026-11-20'], json_encode(['success' => false, 'error' => ['code' => 'INVALID_REQUEST', 'message' => 'Bad limit', 'details' => ['field' => 'limit', 'issue' => 'must be a whole number from 1 to 100']]]));
    T::check('... on an InvalidRequestException, details[0] names the field', $published instanceof InvalidRequestException && $published->getDetails()[0]->field === 'limit');
    T::same('... and its headers say the version', '2026-11-20', $published->getHeaders()['store-version'] ?? null);
    T::same('an entry without a code is invalid_value; junk is dropped', '[{"field":"name","code":"invalid_value","message":"Required"}]', $detailsOf([['field' => 'name', 'message' => 'Required'], 'junk']));
    T::same('a detail about no one field leaves field out', '[{"code":"conflict","message":"busy"}]', $detailsOf([['code' => 'conflict', 'message' => 'busy']]));
    T::same('an answer without an envelope has no details', [], ApiException::fromResponse(502, [], 'Bad gateway')->getDetails());
    T::same('request id from X-Request-Id (any case)', 'req_123', $e->getRequestId());

    $classes = [
        'INVALID_REQUEST' => [400, InvalidRequestException::class],
        'VALIDATION_ERROR' => [422, ValidationException::class],
        'AUTHENTICATION_ERROR' => [401, AuthenticationException::class],
        'AUTHORIZATION_ERROR' => [403, AuthorizationException::class],
        'NOT_FOUND' => [404, NotFoundException::class],
        'CONFLICT' => [409, ConflictException::class],
        'RATE_LIMITED' => [429, RateLimitedException::class],
        'INTERNAL_ERROR' => [500, InternalErrorException::class],
    ];
    foreach ($classes as $code => [$status, $class]) {
        $e = ApiException::fromResponse($status, [], json_encode(['success' => false, 'error' => ['code' => $code, 'message' => 'm', 'details' => []]]));
        T::check("$code maps to " . substr($class, strrpos($class, '\\') + 1), get_class($e) === $class && $e->getErrorCode() === $code);
        $bare = ApiException::fromResponse($status, [], '<html>proxy error</html>');
        T::check("a bare $status without an envelope maps to the same class", get_class($bare) === $class && $bare->getErrorCode() === $code);
    }
    $limited = ApiException::fromResponse(429, ['retry-after' => '2'], json_encode(['success' => false, 'error' => ['code' => 'RATE_LIMITED', 'message' => 'slow', 'details' => []]]));
    T::same('RateLimitedException carries Retry-After', 2, $limited instanceof RateLimitedException ? $limited->getRetryAfter() : null);
    $unknown = ApiException::fromResponse(418, [], json_encode(['success' => false, 'error' => ['code' => 'TEAPOT', 'message' => 'short and stout']]));
    T::check('an unknown code is a plain ApiException with that code', get_class($unknown) === ApiException::class && $unknown->getErrorCode() === 'TEAPOT' && $unknown->getDetails() === []);
    $bad = ApiException::fromResponse(502, [], 'Bad gateway');
    T::check('a 502 page is INTERNAL_ERROR with the text in the message', $bad instanceof InternalErrorException && str_contains($bad->getMessage(), 'Bad gateway'));
});

// ---------------------------------------------------------------------------------------------
T::section('backoff and Retry-After', function (): void {
    $ok = true;
    $spread = [];
    for ($attempt = 0; $attempt < 8; $attempt++) {
        $ceiling = min(10.0, 0.5 * 2 ** $attempt);
        $max = 0.0;
        for ($i = 0; $i < 300; $i++) {
            $d = Client::backoffDelay($attempt, 0.5, 10.0);
            $ok = $ok && $d >= 0 && $d <= $ceiling;
            $max = max($max, $d);
        }
        $spread[$attempt] = $max > $ceiling * 0.8; // full jitter reaches near the ceiling
    }
    T::check('every delay is within [0, min(cap, base * 2^attempt)]', $ok);
    T::check('the delays spread over the whole range (full jitter)', !in_array(false, $spread, true));
    T::same('the cap holds for huge attempts', true, Client::backoffDelay(60, 0.5, 2.0) <= 2.0);
    T::same('Retry-After seconds', 2.0, Client::parseRetryAfter('2'));
    T::same('Retry-After as an HTTP date', 30.0, Client::parseRetryAfter(gmdate('D, d M Y H:i:s', 1_000_030) . ' GMT', 1_000_000));
    T::same('no Retry-After', null, Client::parseRetryAfter(null));
    T::same('a Retry-After that means nothing', null, Client::parseRetryAfter('soon'));
});

// ---------------------------------------------------------------------------------------------
T::section('query encoding', function (): void {
    T::same('booleans are true/false', 'active=true&archived=false', Client::encodeQuery(['active' => true, 'archived' => false]));
    T::same('numbers', 'price_min=10&price_max=19.99&limit=5&n=-0.5', Client::encodeQuery(['price_min' => 10, 'price_max' => 19.99, 'limit' => 5, 'n' => -0.5]));
    T::same('whole floats have no ".0"', 'price_max=30', Client::encodeQuery(['price_max' => 30.0]));
    T::same('big floats have no exponent', 'x=100000000000000000000', Client::encodeQuery(['x' => 1e20]));
    T::same('small floats have no exponent', 'x=0.0000001', Client::encodeQuery(['x' => 1e-7]));
    T::same('nulls are left out', 'a=1', Client::encodeQuery(['a' => 1, 'b' => null]));
    T::same('lists are joined with commas', 'fields=id%2Cname%2Cvariants%28id%2Cprice%29', Client::encodeQuery(['fields' => ['id', 'name', 'variants(id,price)']]));
    T::same('reserved characters are escaped', 'q=t%C3%A9e%20%26%20shirt&sort=price%3Adesc', Client::encodeQuery(['q' => 'tée & shirt', 'sort' => 'price:desc']));
});

// ---------------------------------------------------------------------------------------------
T::section('generated resources (recorded transport)', function (): void {
    $calls = [];
    $transport = function (string $method, string $url, array $headers, ?string $body) use (&$calls): array {
        $calls[] = compact('method', 'url', 'headers', 'body');
        $path = parse_url($url, PHP_URL_PATH);
        if ($method === 'DELETE') {
            return ['status' => 204, 'headers' => [], 'body' => ''];
        }
        if (str_ends_with((string) $path, '/variants') && $method === 'GET') {
            return ['status' => 200, 'headers' => [], 'body' => json_encode(['success' => true, 'data' => [['id' => 'var_1']], 'pagination' => ['page' => 1, 'limit' => 20, 'total' => 1, 'totalPages' => 1, 'hasNext' => false, 'hasPrev' => false]])];
        }
        return ['status' => 200, 'headers' => ['x-request-id' => 'r1'], 'body' => json_encode(['success' => true, 'data' => ['id' => 'x', 'path' => $path]])];
    };
    $store = new Client('https://store.example.com/api/', ['apiKey' => 'sk_test', 'transport' => $transport]);
    T::check('groups nest as properties', $store->products->variants instanceof \StoreApi\Generated\ProductsVariantsResource);
    // Every generated group is reachable from the client, and every generated class loads.
    $reached = [];
    $walk = function (object $node) use (&$walk, &$reached): void {
        foreach ((new \ReflectionObject($node))->getProperties(\ReflectionProperty::IS_PUBLIC) as $property) {
            $value = $property->getValue($node);
            if (is_object($value) && str_starts_with(get_class($value), 'StoreApi\\Generated\\')) {
                $reached[get_class($value)] = true;
                $walk($value);
            }
        }
    };
    $walk($store);
    $files = array_map(static fn (string $f): string => 'StoreApi\\Generated\\' . basename($f, '.php'), glob(__DIR__ . '/../src/Generated/*Resource.php') ?: []);
    sort($files);
    $names = array_keys($reached);
    sort($names);
    T::check('every generated resource class is reachable from the client', $files !== [] && $files === $names, T::show(array_values(array_diff($files, $names))));
    $item = $store->products->variants->get('prod 1', 'var/2', ['fields' => ['id', 'price']]);
    T::same('an item method returns the envelope\'s data', ['id' => 'x', 'path' => '/api/products/prod%201/variants/var%2F2'], $item);
    T::same('path parameters are URL-encoded and the query is appended', 'https://store.example.com/api/products/prod%201/variants/var%2F2?fields=id%2Cprice', $calls[0]['url']);
    T::same('the API key is the bearer credential', 'Bearer sk_test', $calls[0]['headers']['authorization'] ?? null);
    $page = $store->products->variants->list('prod_1');
    T::check('a list method returns a Page', $page instanceof Page && $page->data === [['id' => 'var_1']] && $page->total() === 1 && !$page->hasNext() && count($page) === 1);
    T::same('a 204 returns nothing', null, $store->products->delete('prod_1'));
    T::same('DELETE is sent as DELETE', 'DELETE', end($calls)['method']);

    $store->setToken('jwt.token');
    $store->setCartToken('ct_abc');
    $store->products->create(['name' => 'Tote', 'price' => 20.0, 'attributes' => ['organic' => true]]);
    $last = end($calls);
    T::same('setToken wins over the API key', 'Bearer jwt.token', $last['headers']['authorization'] ?? null);
    T::same('the cart token is X-Cart-Token', 'ct_abc', $last['headers']['x-cart-token'] ?? null);
    T::same('the body is JSON', '{"name":"Tote","price":20.0,"attributes":{"organic":true}}', $last['body']);
    T::same('with Content-Type', 'application/json', $last['headers']['content-type'] ?? null);
    T::check('no Idempotency-Key where the operation takes none', !isset($last['headers']['idempotency-key']));

    $store->orders->cancel('ord_1');
    $last = end($calls);
    T::check('an idempotent operation gets a random UUID v4 Idempotency-Key', preg_match('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $last['headers']['idempotency-key'] ?? '') === 1);
    T::same('an optional body left empty is not sent', null, $last['body']);
    $first = $last['headers']['idempotency-key'];
    $store->orders->cancel('ord_1', ['reason' => 'x']);
    T::check('each call gets a new key', (end($calls)['headers']['idempotency-key'] ?? '') !== $first);
    $store->orders->cancel('ord_1', [], 'my-key-1');
    T::same('a given key is sent as it is', 'my-key-1', end($calls)['headers']['idempotency-key'] ?? null);

    $store->request('POST', '/api/products', ['body' => [], 'bodyRequired' => true]);
    T::same('an empty required body is the empty JSON object', '{}', end($calls)['body']);
    T::same('Client::request reaches any path', 'https://store.example.com/api/anything?a=true', ($store->request('GET', '/api/anything', ['query' => ['a' => true]]) ? end($calls)['url'] : null));
});

// ---------------------------------------------------------------------------------------------
T::section('bookmarks (recorded transport)', function (): void {
    $sent = [];
    $answers = [['x-d1-bookmark' => '00000002-0000000a'], ['x-d1-bookmark' => '00000001-00000001'], []];
    $transport = function (string $method, string $url, array $headers) use (&$sent, &$answers): array {
        $sent[] = $headers['x-d1-bookmark'] ?? null;
        return ['status' => 200, 'headers' => array_shift($answers), 'body' => json_encode(['success' => true, 'data' => ['id' => 'c1']])];
    };
    $store = new Client('https://store.example.com', ['apiKey' => 'sk_test', 'transport' => $transport]);
    $store->categories->create(['name' => 'Bags']);
    $store->categories->get('c1');
    $store->categories->get('c1');
    T::same('the newest bookmark is sent back on every later request', [null, '00000002-0000000a', '00000002-0000000a'], $sent);
    T::same('and readable', '00000002-0000000a', $store->bookmark());
});

// ---------------------------------------------------------------------------------------------
T::section('storefront credentials and X-Buyer-IP (recorded transport)', function (): void {
    $sent = [];
    $transport = function (string $method, string $url, array $headers) use (&$sent): array {
        $sent[] = $headers;
        return ['status' => 200, 'headers' => [], 'body' => json_encode(['success' => true, 'data' => ['id' => 'x']])];
    };
    $auth = static function () use (&$sent): ?string {
        return end($sent)['authorization'] ?? null;
    };
    $shop = new Client('https://store.example.com', ['publishableKey' => 'pk_shop', 'transport' => $transport]);
    $shop->products->get('x');
    T::same('a client with only a publishable key sends it', 'Bearer pk_shop', $auth());
    $shop->setToken('jwt.shopper');
    $shop->products->get('x');
    T::same('a signed-in shopper sends its token instead', 'Bearer jwt.shopper', $auth());
    $shop->setToken(null);
    $shop->products->get('x');
    T::same('signing out falls back to the publishable key', 'Bearer pk_shop', $auth());
    $shop->setApiKey('sk_server');
    $shop->products->get('x');
    T::same('an API key wins over the publishable key', 'Bearer sk_server', $auth());
    $shop->setApiKey(null);
    $shop->setPublishableKey(null);
    $shop->products->get('x');
    T::same('no credential left: anonymous', null, $auth());
    T::check('no X-Buyer-IP unless asked for', !isset(end($sent)['x-buyer-ip']));

    $sent = [];
    $server = new Client('https://store.example.com', ['apiKey' => 'sk_server', 'buyerIp' => '203.0.113.7', 'transport' => $transport]);
    $server->products->get('x');
    $server->carts->create();
    $server->withBuyerIp('2001:db8::1')->products->list();
    $server->request('GET', '/api/products', ['buyerIp' => '198.51.100.2']);
    $server->products->get('x');
    $server->setBuyerIp(null);
    $server->products->get('x');
    T::same(
        'buyerIp is X-Buyer-IP on every request; withBuyerIp() and the buyerIp option change one request only',
        ['203.0.113.7', '203.0.113.7', '2001:db8::1', '198.51.100.2', '203.0.113.7', null],
        array_map(static fn (array $h): ?string => $h['x-buyer-ip'] ?? null, $sent),
    );
    T::same('... beside the secret key', ['Bearer sk_server'], array_values(array_unique(array_column($sent, 'authorization'))));
    T::same('withBuyerIp() leaves the client as it was', null, $server->getBuyerIp());
});

T::section('Store-Version (recorded transport)', function (): void {
    $sent = [];
    $transport = function (string $method, string $url, array $headers) use (&$sent): array {
        $sent[] = $headers['store-version'] ?? null;
        return ['status' => 200, 'headers' => [], 'body' => json_encode(['success' => true, 'data' => ['id' => 'x']])];
    };
    T::check('STORE_VERSION is a date', preg_match('/^\d{4}-\d{2}-\d{2}$/', Client::STORE_VERSION) === 1, Client::STORE_VERSION);
    T::same('... the generated one', \StoreApi\Generated\Version::STORE_VERSION, Client::STORE_VERSION);
    $store = new Client('https://store.example.com', ['apiKey' => 'sk_test', 'transport' => $transport]);
    $store->products->get('x');
    T::same('sent by default: the version the client was generated for', [Client::STORE_VERSION], $sent);
    T::same('... and readable', Client::STORE_VERSION, $store->getStoreVersion());

    $sent = [];
    $older = new Client('https://store.example.com', ['apiKey' => 'sk_test', 'storeVersion' => '2026-11-20', 'transport' => $transport]);
    $older->products->get('x');
    $older->withBuyerIp('203.0.113.7')->products->get('x');
    $older->request('GET', '/api/products/x', ['headers' => ['STORE-VERSION' => '2026-11-28']]);
    $inHeaders = new Client('https://store.example.com', ['storeVersion' => '2026-11-20', 'headers' => ['Store-Version' => '2026-11-28'], 'transport' => $transport]);
    $inHeaders->products->get('x');
    T::same(
        'the storeVersion option sends another, withBuyerIp() keeps it, a Store-Version header (any case) wins over it',
        ['2026-11-20', '2026-11-20', '2026-11-28', '2026-11-28'],
        $sent,
    );
    T::same('... and readable', '2026-11-20', $older->getStoreVersion());
});

T::section('retries against a fake server (php -S)', function (): void {
    $state = temp_dir('store-php-fake-');
    $server = new PhpServer(__DIR__ . '/fixtures/fake-api.php', ['FAKE_API_STATE' => $state]);
    try {
        $retries = [];
        $client = new Client($server->base, ['maxRetryWait' => 5, 'retryBaseDelay' => 0.05, 'onRetry' => function (array $r) use (&$retries): void {
            $retries[] = $r;
        }]);

        $started = microtime(true);
        $data = $client->request('GET', '/api/limited');
        $elapsed = microtime(true) - $started;
        T::same('429 then 200: the call succeeds', ['ok' => true, 'attempt' => 2], $data);
        T::same('one retry counted', 1, $client->getRetryCount());
        T::same('the retry hook saw a 429', [429, 'rate_limited'], [$retries[0]['status'] ?? null, $retries[0]['reason'] ?? null]);
        T::check('it waited for Retry-After (1 s)', $elapsed >= 0.95 && ($retries[0]['wait'] ?? 0) >= 1.0, sprintf('elapsed %.2f s', $elapsed));

        $client->resetRetryCount();
        $e = T::throws('a Retry-After beyond maxRetryWait is raised at once', RateLimitedException::class, fn () => $client->request('GET', '/api/limited-long'));
        T::check('... with its retryAfter, and no retry', $e !== null && $e->getRetryAfter() === 3600 && $client->getRetryCount() === 0);

        T::same('GET 503 then 200: retried', ['attempt' => 2], $client->request('GET', '/api/flaky'));
        T::same('... one more retry', 1, $client->getRetryCount());

        @unlink($state . '/count-' . md5('/api/flaky'));
        $client->resetRetryCount();
        T::throws('a POST without an Idempotency-Key is not retried on 503', InternalErrorException::class, fn () => $client->request('POST', '/api/flaky', ['body' => ['a' => 1]]));
        T::same('... no retry', 0, $client->getRetryCount());

        @unlink($state . '/count-' . md5('/api/flaky'));
        @unlink($state . '/requests.jsonl');
        T::same('a POST with an Idempotency-Key is retried on 503', ['attempt' => 2], $client->request('POST', '/api/flaky', ['body' => ['a' => 1], 'idempotent' => true]));
        $requests = array_map(static fn (string $l): array => json_decode($l, true), file($state . '/requests.jsonl', FILE_IGNORE_NEW_LINES) ?: []);
        T::check('... with the same key on both attempts', count($requests) === 2 && ($requests[0]['headers']['idempotency-key'] ?? 'a') === ($requests[1]['headers']['idempotency-key'] ?? 'b'));

        $client->resetRetryCount();
        $e = T::throws('a GET failing every time gives up after maxRetries', InternalErrorException::class, fn () => $client->request('GET', '/api/broken'));
        T::check('... after 3 retries, with the request id', $client->getRetryCount() === 3 && $e !== null && str_starts_with((string) $e->getRequestId(), 'req_fake_'));

        $echo = $client->request('GET', '/api/echo', ['query' => ['active' => false, 'price_max' => 30.5, 'fields' => 'id,name']]);
        T::same('the query arrives as sent', ['active' => 'false', 'price_max' => '30.5', 'fields' => 'id,name'], $echo['query'] ?? null);
        T::same('a 204 is null', null, $client->request('DELETE', '/api/gone', ['response' => 'none']));

        $ids = [];
        foreach ($client->paginate(fn (array $q): Page => $client->request('GET', '/api/items', ['query' => $q, 'response' => 'list'])) as $item) {
            $ids[] = $item['id'];
        }
        T::same('paginate goes over every page', ['item_1', 'item_2', 'item_3', 'item_4', 'item_5', 'item_6', 'item_7'], $ids);
        $fromTwo = iterator_to_array($client->paginate(fn (array $q): Page => $client->request('GET', '/api/items', ['query' => $q, 'response' => 'list']), ['page' => 2]), false);
        T::same('... or from the page given', 4, count($fromTwo));

        T::throws('an unknown route is NotFoundException', NotFoundException::class, fn () => $client->request('GET', '/api/nope'));

        $port = PhpServer::freePort();
        $down = new Client("http://127.0.0.1:$port", ['retryBaseDelay' => 0.01, 'maxRetries' => 2]);
        T::throws('a refused connection is ConnectionException', ConnectionException::class, fn () => $down->request('GET', '/api/health'));
        T::same('... after retrying a GET', 2, $down->getRetryCount());
        $down->resetRetryCount();
        T::throws('a POST that cannot connect', ConnectionException::class, fn () => $down->request('POST', '/api/orders', ['body' => ['a' => 1]]));
        T::same('... is not retried', 0, $down->getRetryCount());
    } finally {
        $server->stop();
    }
});

T::finish();
