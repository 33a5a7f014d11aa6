<?php

declare(strict_types=1);

namespace StoreApi;

use StoreApi\Exception\ConnectionException;

/**
 * The default transport: one cURL handle per client, reused so that connections are kept alive.
 *
 * A transport is any callable(string $method, string $url, array $headers, ?string $body, array $opts)
 * returning ['status' => int, 'headers' => array<lowercase name, string>, 'body' => string], throwing
 * ConnectionException when no HTTP answer came (refused, reset, DNS, TLS, timeout).
 */
final class CurlTransport
{
    /** @var \CurlHandle|null */
    private $handle = null;

    /**
     * @param array<string, string> $headers lowercase names
     * @param array{timeout?: float, connectTimeout?: float} $opts
     * @return array{status: int, headers: array<string, string>, body: string}
     */
    public function __invoke(string $method, string $url, array $headers, ?string $body, array $opts = []): array
    {
        if (!function_exists('curl_init')) {
            throw new \RuntimeException('The Store API client needs the curl extension (php-curl)');
        }
        if ($this->handle === null) {
            $this->handle = curl_init();
        } else {
            curl_reset($this->handle);
        }
        $ch = $this->handle;
        $received = [];
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = $name . ': ' . $value;
        }
        // cURL would otherwise send "Expect: 100-continue" for larger bodies and wait for it.
        $lines[] = 'Expect:';
        curl_setopt_array($ch, [
            CURLOPT_URL => $url,
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_NOBODY => $method === 'HEAD',
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_ENCODING => '',
            CURLOPT_TIMEOUT_MS => (int) round(($opts['timeout'] ?? 30) * 1000),
            CURLOPT_CONNECTTIMEOUT_MS => (int) round(($opts['connectTimeout'] ?? 10) * 1000),
            CURLOPT_HEADERFUNCTION => static function ($ch, string $line) use (&$received): int {
                $trimmed = trim($line);
                if (preg_match('~^HTTP/\S+\s+\d+~', $trimmed) === 1) {
                    $received = []; // a new response (after 100 Continue): start over
                } elseif (($colon = strpos($trimmed, ':')) !== false) {
                    $name = strtolower(trim(substr($trimmed, 0, $colon)));
                    $value = trim(substr($trimmed, $colon + 1));
                    $received[$name] = isset($received[$name]) ? $received[$name] . ', ' . $value : $value;
                }
                return strlen($line);
            },
        ]);
        if ($body !== null) {
            curl_setopt($ch, CURLOPT_POSTFIELDS, $body);
        }
        $result = curl_exec($ch);
        if ($result === false) {
            $errno = curl_errno($ch);
            $message = curl_error($ch);
            throw new ConnectionException(sprintf('%s %s failed: %s (cURL error %d)', $method, $url, $message, $errno), $errno);
        }
        return [
            'status' => (int) curl_getinfo($ch, CURLINFO_RESPONSE_CODE),
            'headers' => $received,
            'body' => (string) $result,
        ];
    }
}
