<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/**
 * No HTTP answer came: the connection was refused or reset, the name did not resolve, TLS failed or
 * the request timed out. Retried for requests that are safe to repeat, then thrown. getCode() is
 * the cURL error number.
 */
class ConnectionException extends \RuntimeException implements StoreApiException
{
}
