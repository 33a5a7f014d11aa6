<?php

declare(strict_types=1);

namespace StoreApi;

use StoreApi\Exception\WebhookVerificationException;

/**
 * Verifying the store's webhook deliveries on the receiving side, with the rules of the store's own
 * verifier (clients/typescript/src/webhooks.js, which was src/webhooks/verify.js):
 * verifyStoreSignature() and verifyStandard() give the answers of its verifyStoreSignature() and
 * verifyStandardWebhook() for the same input, and verify() accepts a delivery when either does.
 *
 * - `X-Store-Signature` (or, while a secret rotation overlaps, `X-Store-Signature-Previous`): the
 *   hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_...`) as bytes.
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp` (Unix seconds, at most $tolerance seconds
 *   away from now either way) and `webhook-signature`, space-separated `v1,<base64>` entries of the
 *   HMAC-SHA256 of "<id>.<timestamp>.<body>", keyed with the base64-decoded part after `whsec_`.
 *
 * A delivery verifies when either scheme matches. Header names are case-insensitive; comparisons are
 * constant-time (hash_equals). Malformed input from the network is a failed verification, never an
 * exception; an empty secret is the caller's mistake and throws InvalidArgumentException.
 *
 *     $body = file_get_contents('php://input');      // the raw body, before json_decode
 *     if (!StoreApi\Webhook::verify($body, getallheaders(), $secret)) { http_response_code(400); exit; }
 *
 * @phpstan-import-type StoreEvent from Generated\Events
 */
final class Webhook
{
    public const SECRET_PREFIX = 'whsec_';
    public const DEFAULT_TOLERANCE = 300;
    /** Bytes in an HMAC-SHA256. */
    private const MAC_BYTES = 32;

    /**
     * Whether a delivery is genuine: X-Store-Signature / X-Store-Signature-Previous, or the Standard
     * Webhooks headers within $tolerance seconds.
     *
     * @param string $body the raw request body, exactly as received
     * @param array<string, string|list<string>> $headers the request headers (getallheaders(), a PSR-7
     *     request's getHeaders(), ...), names in any case
     * @param string|list<string> $secret the endpoint's signing secret; during a rotation both the new
     *     and the old one
     * @param int|null $now Unix seconds to judge the timestamp against (now when null)
     */
    public static function verify(string $body, array $headers, string|array $secret, int $tolerance = self::DEFAULT_TOLERANCE, ?int $now = null): bool
    {
        $secrets = is_array($secret) ? array_values($secret) : [$secret];
        if ($secrets === []) {
            throw new \InvalidArgumentException('verify needs the endpoint\'s signing secret');
        }
        foreach ($secrets as $i => $s) {
            self::assertSecret($s, is_array($secret) ? "secret[$i]" : 'secret');
        }
        foreach ($secrets as $s) {
            foreach (['x-store-signature', 'x-store-signature-previous'] as $name) {
                if (self::verifyStoreSignature($body, self::header($headers, $name), $s)) {
                    return true;
                }
            }
        }
        if (self::header($headers, 'webhook-signature') === null) {
            return false;
        }
        foreach ($secrets as $s) {
            if (self::verifyStandard($body, $headers, $s, $tolerance, $now)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Verifies a delivery (as verify()) and returns its decoded body, `{ id, event, data, timestamp }`,
     * whose shape per kind is in Generated\Events (`@phpstan-import-type OrderPlacedEvent from
     * \StoreApi\Generated\Events`). A kind added to the store after this client was generated is
     * returned too. Throws WebhookVerificationException when it does not verify: answer 400.
     *
     * @param array<string, string|list<string>> $headers
     * @param string|list<string> $secret
     * @return array<string, mixed>
     * @phpstan-return StoreEvent
     * @throws WebhookVerificationException
     */
    public static function constructEvent(string $body, array $headers, string|array $secret, int $tolerance = self::DEFAULT_TOLERANCE, ?int $now = null): array
    {
        if (!self::verify($body, $headers, $secret, $tolerance, $now)) {
            throw new WebhookVerificationException('Webhook not verified: no signature matches the secret');
        }
        $event = json_decode($body, true);
        if (!is_array($event) || !is_string($event['event'] ?? null)) {
            throw new WebhookVerificationException('Webhook body is not an event ({ id, event, data, timestamp })');
        }
        return $event;
    }

    /**
     * Ordering (the store's docs/webhooks.md, Ordering): the events about one resource (an order, a
     * product, a customer) carry `sequence` 1, 2, 3, ... in the order the store wrote them, whatever
     * order they arrive in. Keep, per `resourceId`, the highest sequence you applied: an event at or
     * below it is older news (it arrived late, or twice) and is skipped. An event with no sequence (a
     * test ping) is always new.
     *
     * @param array<string, mixed> $event
     */
    public static function isNewerEvent(array $event, ?int $lastApplied): bool
    {
        $sequence = $event['sequence'] ?? null;
        if (!is_int($sequence)) {
            return true;
        }
        return $lastApplied === null || $sequence > $lastApplied;
    }

    /**
     * `X-Store-Signature`: the lowercase (any case accepted) hex HMAC-SHA256 of the body keyed with
     * the whole secret string. False for a missing, truncated or non-hex signature and any mismatch.
     */
    public static function verifyStoreSignature(string $body, ?string $signature, string $secret): bool
    {
        self::assertSecret($secret);
        if ($signature === null) {
            return false;
        }
        $signature = trim($signature);
        if (strlen($signature) !== self::MAC_BYTES * 2 || preg_match('/^[0-9a-fA-F]*$/', $signature) !== 1) {
            return false;
        }
        $given = (string) hex2bin($signature);
        return hash_equals(hash_hmac('sha256', $body, $secret, true), $given);
    }

    /**
     * The Standard Webhooks headers: `webhook-timestamp` within $tolerance seconds of $now, and one
     * `v1,<base64>` entry of `webhook-signature` matching. Entries of other versions are ignored.
     *
     * @param array<string, string|list<string>> $headers
     * @throws \InvalidArgumentException when the secret is not "whsec_" followed by base64
     */
    public static function verifyStandard(string $body, array $headers, string $secret, int $tolerance = self::DEFAULT_TOLERANCE, ?int $now = null): bool
    {
        self::assertSecret($secret);
        $key = self::standardKey($secret);
        $id = self::header($headers, 'webhook-id');
        $timestamp = self::header($headers, 'webhook-timestamp');
        $signatures = self::header($headers, 'webhook-signature');
        if ($id === null || $id === '' || $timestamp === null || $timestamp === '' || $signatures === null || $signatures === '') {
            return false;
        }
        $timestamp = trim($timestamp);
        if (preg_match('/^\d{1,12}$/', $timestamp) !== 1) {
            return false;
        }
        $nowSeconds = $now ?? microtime(true);
        if (abs($nowSeconds - (int) $timestamp) > $tolerance) {
            return false;
        }
        $expected = hash_hmac('sha256', $id . '.' . $timestamp . '.' . $body, $key, true);
        $matched = false;
        $entries = preg_split('/\s+/', trim($signatures)) ?: [];
        foreach ($entries as $entry) {
            $comma = strpos($entry, ',');
            if ($comma === false || substr($entry, 0, $comma) !== 'v1') {
                continue;
            }
            $given = self::base64ToBytes(substr($entry, $comma + 1));
            // No early exit: every entry is compared.
            if ($given !== null && strlen($given) === self::MAC_BYTES && hash_equals($expected, $given)) {
                $matched = true;
            }
        }
        return $matched;
    }

    /**
     * The delivery id to deduplicate on: `X-Store-Delivery`, else `webhook-id`.
     *
     * @param array<string, string|list<string>> $headers
     */
    public static function deliveryId(array $headers): ?string
    {
        return self::header($headers, 'x-store-delivery') ?? self::header($headers, 'webhook-id');
    }

    /**
     * A header's value, its name matched case-insensitively; repeated values joined with ", ".
     *
     * @param array<string, string|list<string>> $headers
     */
    public static function header(array $headers, string $name): ?string
    {
        $wanted = strtolower($name);
        foreach ($headers as $key => $value) {
            if (strtolower((string) $key) === $wanted) {
                if (is_array($value)) {
                    $value = implode(', ', array_map('strval', $value));
                }
                return is_string($value) ? $value : null;
            }
        }
        return null;
    }

    private static function assertSecret(mixed $secret, string $what = 'secret'): void
    {
        if (!is_string($secret) || $secret === '') {
            throw new \InvalidArgumentException($what . ' must be the endpoint\'s signing secret (a non-empty string, "whsec_...")');
        }
    }

    private static function standardKey(string $secret): string
    {
        $encoded = str_starts_with($secret, self::SECRET_PREFIX) ? substr($secret, strlen(self::SECRET_PREFIX)) : $secret;
        $key = self::base64ToBytes($encoded);
        if ($key === null || $key === '') {
            throw new \InvalidArgumentException('secret must be "whsec_" followed by base64 for Standard Webhooks verification');
        }
        return $key;
    }

    /**
     * Standard base64 to bytes, or null when it is not base64. Same answers as the browser's atob()
     * behind verify.js's /^[A-Za-z0-9+/]*={0,2}$/ check: padding optional, but only where it belongs.
     */
    private static function base64ToBytes(string $text): ?string
    {
        if (preg_match('~^[A-Za-z0-9+/]*={0,2}$~', $text) !== 1) {
            return null;
        }
        if (strlen($text) % 4 === 0) {
            $text = (string) preg_replace('/={1,2}$/', '', $text);
        }
        if (str_contains($text, '=') || strlen($text) % 4 === 1) {
            return null;
        }
        $bytes = base64_decode($text, true);
        return $bytes === false ? null : $bytes;
    }
}
