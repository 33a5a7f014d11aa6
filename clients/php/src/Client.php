<?php

declare(strict_types=1);

namespace StoreApi;

use StoreApi\Exception\ApiException;
use StoreApi\Exception\ConnectionException;
use StoreApi\Exception\RateLimitedException;
use StoreApi\Generated\ClientGroups;

/**
 * The Store API client.
 *
 *     $store = new StoreApi\Client('https://store.example.com', ['apiKey' => 'sk_...']);
 *     $page = $store->products->list(['category' => 'shoes', 'sort' => 'price:desc']);
 *     foreach ($store->products->iterate(['category' => 'shoes']) as $product) { ... }
 *
 * The resource groups ($store->products, $store->products->variants, $store->orders, ...) are
 * generated from the OpenAPI document (src/Generated/); this class is the hand-written runtime they
 * call: authentication headers, JSON, the envelope, typed errors, retries and pagination.
 *
 * Options (all optional):
 * - apiKey:         an API key (sk_...), sent as `Authorization: Bearer`. For servers only.
 * - token:          a user token (JWT) from auth login/register; wins over apiKey and
 *                   publishableKey. See setToken().
 * - publishableKey: a publishable key (pk_...): a shopper's abilities only (catalogue, carts,
 *                   checkout, sign-up and sign-in). Sent while no token or apiKey is set, so a
 *                   shopper's sign-in (setToken) replaces it and setToken(null) goes back to it.
 * - buyerIp:        sent as `X-Buyer-IP` on every request: the address of the shopper a
 *                   server-rendered storefront is answering, so the request is counted on that
 *                   shopper instead of the key. Needs an apiKey holding `storefront:buyer-ip` (403
 *                   otherwise; 400 for a value that is not an IPv4 or IPv6 address). Server-side
 *                   only, never in code a browser runs. Per request: withBuyerIp(), or the
 *                   request() option `buyerIp`.
 * - cartToken:      a guest cart's token, sent as `X-Cart-Token`. See setCartToken().
 * - storeVersion:   the API version to be answered in, sent as `Store-Version` on every request
 *                   (docs/versioning.md); Client::STORE_VERSION, the version this client was
 *                   generated for, by default. A `Store-Version` in `headers` wins over it.
 * - maxRetries:     retries after the first attempt (3).
 * - maxRetryWait:   the longest single wait in seconds (30): a 429 whose Retry-After is longer is
 *                   raised at once as RateLimitedException, and backoff never waits longer.
 * - retryBaseDelay: the first backoff step in seconds (0.5); step n waits a random time in
 *                   [0, min(maxRetryWait, retryBaseDelay * 2^n)] ("full jitter").
 * - timeout:        seconds for a whole request (30); connectTimeout: seconds to connect (10).
 * - headers:        extra headers for every request (name => value).
 * - userAgent:      the User-Agent header.
 * - onRetry:        callable(array $retry): void, called before each retry's wait with
 *                   ['attempt' => int, 'method', 'path', 'operation', 'status' => ?int,
 *                   'reason' => 'rate_limited'|'server_error'|'network_error', 'wait' => float].
 * - transport:      callable(string $method, string $url, array $headers, ?string $body, array $opts): array
 *                   returning ['status' => int, 'headers' => array<lowercase name, string>, 'body' => string]
 *                   and throwing ConnectionException when the server cannot be reached (cURL by default).
 * - sleep:          callable(float $seconds): void (usleep by default; tests replace it).
 */
final class Client
{
    use ClientGroups;

    public const VERSION = '0.1.0';

    /**
     * The API version this client was generated for (src/Generated/Version.php), sent as
     * `Store-Version` unless the `storeVersion` option names another: its answers then have the
     * shapes its phpdoc describes, whatever the key is pinned to or the store defaults to.
     */
    public const STORE_VERSION = Generated\Version::STORE_VERSION;

    /** Methods retried on 5xx and network errors (besides requests carrying an Idempotency-Key). */
    private const SAFE_METHODS = ['GET', 'HEAD', 'DELETE'];

    private string $baseUrl;
    private ?string $apiKey;
    private ?string $token;
    private ?string $publishableKey;
    private ?string $buyerIp;
    private ?string $cartToken;
    private string $storeVersion;
    /** The newest X-D1-Bookmark the API answered with, sent on every later request (see bookmark()). */
    private ?string $bookmark = null;
    private int $maxRetries;
    private float $maxRetryWait;
    private float $retryBaseDelay;
    private float $timeout;
    private float $connectTimeout;
    /** @var array<string, string> */
    private array $defaultHeaders;
    /** @var callable|null */
    private $onRetry;
    /** @var callable */
    private $transport;
    /** @var callable */
    private $sleep;
    private int $retryCount = 0;

    /**
     * @param string $baseUrl the Worker's origin, e.g. https://store.example.com (with or without /api)
     * @param array{
     *     apiKey?: string|null,
     *     token?: string|null,
     *     publishableKey?: string|null,
     *     buyerIp?: string|null,
     *     cartToken?: string|null,
     *     storeVersion?: string|null,
     *     maxRetries?: int,
     *     maxRetryWait?: int|float,
     *     retryBaseDelay?: int|float,
     *     timeout?: int|float,
     *     connectTimeout?: int|float,
     *     headers?: array<string, string>,
     *     userAgent?: string,
     *     onRetry?: callable(array<string, mixed>): void,
     *     transport?: callable,
     *     sleep?: callable(float): void,
     * } $options
     */
    public function __construct(string $baseUrl, array $options = [])
    {
        $base = rtrim($baseUrl, '/');
        // Operation paths start with /api: accept a base URL given with it too.
        if (preg_match('~/api(/v1)?$~', $base) === 1) {
            $base = (string) preg_replace('~/api(/v1)?$~', '', $base);
        }
        $this->baseUrl = $base;
        $this->apiKey = $options['apiKey'] ?? null;
        $this->token = $options['token'] ?? null;
        $this->publishableKey = $options['publishableKey'] ?? null;
        $this->buyerIp = $options['buyerIp'] ?? null;
        $this->cartToken = $options['cartToken'] ?? null;
        $this->storeVersion = $options['storeVersion'] ?? self::STORE_VERSION;
        $this->maxRetries = max(0, (int) ($options['maxRetries'] ?? 3));
        $this->maxRetryWait = max(0.0, (float) ($options['maxRetryWait'] ?? 30));
        $this->retryBaseDelay = max(0.0, (float) ($options['retryBaseDelay'] ?? 0.5));
        $this->timeout = (float) ($options['timeout'] ?? 30);
        $this->connectTimeout = (float) ($options['connectTimeout'] ?? 10);
        $this->defaultHeaders = [];
        foreach ($options['headers'] ?? [] as $name => $value) {
            $this->defaultHeaders[strtolower((string) $name)] = (string) $value;
        }
        $this->defaultHeaders['user-agent'] = $options['userAgent']
            ?? $this->defaultHeaders['user-agent']
            ?? 'store-api-php/' . self::VERSION . ' PHP/' . PHP_VERSION;
        $this->onRetry = $options['onRetry'] ?? null;
        $this->transport = $options['transport'] ?? new CurlTransport();
        $this->sleep = $options['sleep'] ?? static function (float $seconds): void {
            if ($seconds > 0) {
                usleep((int) round($seconds * 1_000_000));
            }
        };
        $this->initGroups();
    }

    /**
     * Sends this user token (from auth login/register) as the credential from now on, instead of
     * the API key or the publishable key; null (signing out) to go back to the key.
     */
    public function setToken(?string $token): void
    {
        $this->token = $token;
    }

    public function getToken(): ?string
    {
        return $this->token;
    }

    /** Sends this API key when no user token is set; null to stop. */
    public function setApiKey(?string $apiKey): void
    {
        $this->apiKey = $apiKey;
    }

    /** Sends this publishable key (pk_...) while no user token or API key is set; null to stop. */
    public function setPublishableKey(?string $publishableKey): void
    {
        $this->publishableKey = $publishableKey;
    }

    /**
     * Sends this shopper's address as `X-Buyer-IP` on every request from now on; null to stop. A
     * client that serves several shoppers should use withBuyerIp() per request instead.
     */
    public function setBuyerIp(?string $buyerIp): void
    {
        $this->buyerIp = $buyerIp;
    }

    public function getBuyerIp(): ?string
    {
        return $this->buyerIp;
    }

    /**
     * A new client with this one's settings and credentials that sends `X-Buyer-IP: $buyerIp`
     * (null: none); this one is left as it is. For one shopper's request in a server-rendered
     * storefront: `$store->withBuyerIp($_SERVER['REMOTE_ADDR'])->products->list([...])`.
     */
    public function withBuyerIp(?string $buyerIp): self
    {
        $copy = new self($this->baseUrl, [
            'apiKey' => $this->apiKey,
            'token' => $this->token,
            'publishableKey' => $this->publishableKey,
            'buyerIp' => $buyerIp,
            'cartToken' => $this->cartToken,
            'storeVersion' => $this->storeVersion,
            'maxRetries' => $this->maxRetries,
            'maxRetryWait' => $this->maxRetryWait,
            'retryBaseDelay' => $this->retryBaseDelay,
            'timeout' => $this->timeout,
            'connectTimeout' => $this->connectTimeout,
            'headers' => $this->defaultHeaders,
            'onRetry' => $this->onRetry,
            'transport' => $this->transport,
            'sleep' => $this->sleep,
        ]);
        $copy->bookmark = $this->bookmark;
        return $copy;
    }

    /** Sends this guest cart token as `X-Cart-Token` from now on (carts.create answers it once); null to stop. */
    public function setCartToken(?string $cartToken): void
    {
        $this->cartToken = $cartToken;
    }

    public function getCartToken(): ?string
    {
        return $this->cartToken;
    }

    /** The API version this client asks to be answered in (`Store-Version`): its `storeVersion` option, else STORE_VERSION. */
    public function getStoreVersion(): string
    {
        return $this->storeVersion;
    }

    /**
     * The newest `X-D1-Bookmark` the API answered with. It is sent on every later request, so reads
     * see at least what this client wrote, even when a database replica serves them.
     */
    public function bookmark(): ?string
    {
        return $this->bookmark;
    }

    /** How many retries this client has made so far (every reason). */
    public function getRetryCount(): int
    {
        return $this->retryCount;
    }

    public function resetRetryCount(): void
    {
        $this->retryCount = 0;
    }

    /**
     * Calls an operation: the generated resources use it, and it reaches any path they do not cover.
     *
     * @param string $method GET, POST, PATCH, PUT or DELETE
     * @param string $path the path from the origin, e.g. /api/products/prod_123
     * @param array{
     *     query?: array<string, mixed>,
     *     body?: mixed,
     *     bodyRequired?: bool,
     *     file?: string,
     *     headers?: array<string, string>,
     *     idempotent?: bool,
     *     idempotencyKey?: string|null,
     *     buyerIp?: string|null,
     *     response?: 'list'|'item'|'none'|'raw',
     *     operation?: string,
     * } $options `response` says what to return: 'item' the envelope's data, 'list' a Page,
     *     'none' null, 'raw' the whole decoded JSON; `buyerIp` is this request's `X-Buyer-IP`
     *     (default: the client's)
     * @return mixed
     * @throws ApiException
     * @throws ConnectionException
     */
    public function request(string $method, string $path, array $options = []): mixed
    {
        $method = strtoupper($method);
        $url = $this->baseUrl . '/' . ltrim($path, '/');
        $query = self::encodeQuery($options['query'] ?? []);
        if ($query !== '') {
            $url .= (str_contains($url, '?') ? '&' : '?') . $query;
        }

        $headers = $this->defaultHeaders;
        $headers['accept'] = 'application/json';
        // The signed-in user's token, then the secret key, then the publishable key.
        foreach ([$this->token, $this->apiKey, $this->publishableKey] as $credential) {
            if ($credential !== null && $credential !== '') {
                $headers['authorization'] = 'Bearer ' . $credential;
                break;
            }
        }
        $buyerIp = $options['buyerIp'] ?? $this->buyerIp;
        if ($buyerIp !== null && $buyerIp !== '') {
            $headers['x-buyer-ip'] = $buyerIp;
        }
        if ($this->cartToken !== null && $this->cartToken !== '') {
            $headers['x-cart-token'] = $this->cartToken;
        }
        foreach ($options['headers'] ?? [] as $name => $value) {
            $headers[strtolower((string) $name)] = (string) $value;
        }
        $headers['store-version'] ??= $this->storeVersion;
        if (!empty($options['idempotent']) || ($options['idempotencyKey'] ?? null) !== null) {
            // One key for every attempt of this call, so a retry cannot do the work twice.
            $headers['idempotency-key'] = $options['idempotencyKey'] ?? $headers['idempotency-key'] ?? self::uuid4();
        }

        $body = null;
        if (array_key_exists('body', $options) && $options['body'] !== null) {
            $payload = $options['body'];
            $omit = $payload === [] && !($options['bodyRequired'] ?? true);
            if (!$omit) {
                // An empty PHP array is the empty JSON object, not [].
                $body = $payload === [] ? '{}' : json_encode($payload, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION | JSON_THROW_ON_ERROR);
                $headers['content-type'] = 'application/json';
            }
        } elseif (isset($options['file'])) {
            // A file (an image upload): its bytes as they are; the server reads their type from them.
            $body = $options['file'];
            $headers['content-type'] = 'application/octet-stream';
        }

        if ($this->bookmark !== null) {
            $headers['x-d1-bookmark'] = $this->bookmark;
        }
        $response = $this->send($method, $url, $headers, $body, $path, $options['operation'] ?? null);
        $answered = $response['headers']['x-d1-bookmark'] ?? null;
        // Bookmarks sort as they advance: keep the newest.
        if (is_string($answered) && $answered !== '' && ($this->bookmark === null || strcmp($answered, $this->bookmark) > 0)) {
            $this->bookmark = $answered;
        }
        $status = $response['status'];
        if ($status >= 400) {
            throw ApiException::fromResponse($status, $response['headers'], $response['body']);
        }
        $kind = $options['response'] ?? 'item';
        if ($kind === 'none' || $status === 204 || $response['body'] === '') {
            return null;
        }
        $decoded = json_decode($response['body'], true);
        if (json_last_error() !== JSON_ERROR_NONE) {
            if ($kind === 'raw') {
                return $response['body'];
            }
            throw new ApiException('INVALID_RESPONSE', $status, 'The API answered something that is not JSON', [], $response['headers']['x-request-id'] ?? null);
        }
        return match ($kind) {
            'raw' => $decoded,
            'list' => Page::fromEnvelope(is_array($decoded) ? $decoded : []),
            default => is_array($decoded) && array_key_exists('data', $decoded) ? $decoded['data'] : $decoded,
        };
    }

    /**
     * Every item of a list, page after page: `$fetch(array $query): Page` is called with `page` set
     * (1 unless the query gives one) until a page says it has no next one.
     *
     * @param callable(array<string, mixed>): Page $fetch
     * @param array<string, mixed> $query
     * @return \Generator<int, mixed, mixed, void>
     */
    public function paginate(callable $fetch, array $query = []): \Generator
    {
        $page = (int) ($query['page'] ?? 1);
        $index = 0;
        while (true) {
            $result = $fetch(['page' => $page] + $query);
            foreach ($result->data as $item) {
                yield $index++ => $item;
            }
            if (!$result->hasNext() || $result->data === []) {
                return;
            }
            $page++;
        }
    }

    /**
     * The query string: booleans as true/false, floats without exponents, lists joined with commas
     * (`fields` => ['id', 'name']), nulls left out.
     *
     * @param array<string, mixed> $query
     */
    public static function encodeQuery(array $query): string
    {
        $pairs = [];
        foreach ($query as $name => $value) {
            if ($value === null) {
                continue;
            }
            if (is_array($value)) {
                $value = implode(',', array_map(static fn ($v): string => self::scalar($v), $value));
            } else {
                $value = self::scalar($value);
            }
            $pairs[] = rawurlencode((string) $name) . '=' . rawurlencode($value);
        }
        return implode('&', $pairs);
    }

    private static function scalar(mixed $value): string
    {
        if (is_bool($value)) {
            return $value ? 'true' : 'false';
        }
        if (is_float($value)) {
            if (!is_finite($value)) {
                throw new \InvalidArgumentException('A query parameter cannot be INF or NAN');
            }
            $text = (string) json_encode($value);
            if (stripos($text, 'e') !== false) {
                $text = rtrim(rtrim(sprintf('%.20F', $value), '0'), '.');
            }
            return $text;
        }
        if ($value instanceof \BackedEnum) {
            return (string) $value->value;
        }
        if ($value instanceof \DateTimeInterface) {
            return $value->format(\DateTimeInterface::RFC3339_EXTENDED);
        }
        return (string) $value;
    }

    /** A random UUID version 4 (for Idempotency-Key). */
    public static function uuid4(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }

    /**
     * The wait before retry number $attempt (0 for the first): a random time in
     * [0, min($cap, $base * 2^$attempt)] seconds ("full jitter").
     */
    public static function backoffDelay(int $attempt, float $base = 0.5, float $cap = 30.0): float
    {
        $ceiling = min($cap, $base * (2 ** max(0, $attempt)));
        return $ceiling * (random_int(0, PHP_INT_MAX) / PHP_INT_MAX);
    }

    /**
     * Seconds from a Retry-After header (delta seconds or an HTTP date), or null without a usable one.
     */
    public static function parseRetryAfter(?string $value, ?int $now = null): ?float
    {
        if ($value === null || trim($value) === '') {
            return null;
        }
        $value = trim($value);
        if (is_numeric($value)) {
            return max(0.0, (float) $value);
        }
        $time = strtotime($value);
        if ($time === false) {
            return null;
        }
        return (float) max(0, $time - ($now ?? time()));
    }

    /**
     * Sends with retries: 429 on any method (the request was not served) after Retry-After; 5xx and
     * network errors only when repeating is safe (GET/HEAD/DELETE or a request with an
     * Idempotency-Key, which the server answers from its first result).
     *
     * @param array<string, string> $headers
     * @return array{status: int, headers: array<string, string>, body: string}
     */
    private function send(string $method, string $url, array $headers, ?string $body, string $path, ?string $operation): array
    {
        $repeatable = in_array($method, self::SAFE_METHODS, true) || isset($headers['idempotency-key']);
        $opts = ['timeout' => $this->timeout, 'connectTimeout' => $this->connectTimeout];
        for ($attempt = 0; ; $attempt++) {
            $status = null;
            $wait = null;
            $reason = null;
            try {
                $response = ($this->transport)($method, $url, $headers, $body, $opts);
                $status = (int) $response['status'];
                if ($status === 429) {
                    $retryAfter = self::parseRetryAfter($response['headers']['retry-after'] ?? null);
                    if ($attempt >= $this->maxRetries || ($retryAfter !== null && $retryAfter > $this->maxRetryWait)) {
                        return $response;
                    }
                    $reason = 'rate_limited';
                    $backoff = self::backoffDelay($attempt, $this->retryBaseDelay, $this->maxRetryWait);
                    $wait = $retryAfter === null ? $backoff : min($this->maxRetryWait, max($retryAfter, $backoff));
                } elseif ($status >= 500 && $repeatable && $attempt < $this->maxRetries) {
                    $reason = 'server_error';
                    $wait = self::backoffDelay($attempt, $this->retryBaseDelay, $this->maxRetryWait);
                } else {
                    return $response;
                }
            } catch (ConnectionException $error) {
                if (!$repeatable || $attempt >= $this->maxRetries) {
                    throw $error;
                }
                $reason = 'network_error';
                $wait = self::backoffDelay($attempt, $this->retryBaseDelay, $this->maxRetryWait);
            }
            $this->retryCount++;
            if ($this->onRetry !== null) {
                ($this->onRetry)([
                    'attempt' => $attempt + 1,
                    'method' => $method,
                    'path' => $path,
                    'operation' => $operation,
                    'status' => $status,
                    'reason' => $reason,
                    'wait' => $wait,
                ]);
            }
            ($this->sleep)($wait);
        }
    }
}
