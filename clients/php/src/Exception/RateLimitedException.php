<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/**
 * RATE_LIMITED (429): over a rate limit or a sign-in lock-out. Thrown when the retries ran out or the
 * server asked for a longer wait (Retry-After) than the client's maxRetryWait; getRetryAfter() says
 * how many seconds to wait (null when the answer did not say).
 */
class RateLimitedException extends ApiException
{
    /**
     * @param array<string, string> $headers
     */
    public function __construct(
        string $errorCode,
        int $status,
        string $message,
        mixed $details = [],
        ?string $requestId = null,
        array $headers = [],
        ?\Throwable $previous = null,
        public readonly ?int $retryAfter = null,
    ) {
        parent::__construct($errorCode, $status, $message, $details, $requestId, $headers, $previous);
    }

    public function getRetryAfter(): ?int
    {
        return $this->retryAfter;
    }
}
