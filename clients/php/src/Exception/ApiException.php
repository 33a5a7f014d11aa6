<?php

declare(strict_types=1);

namespace StoreApi\Exception;

use StoreApi\ErrorDetail;

/**
 * The API answered with an error envelope `{success: false, error: {code, message, details}}`.
 *
 * getErrorCode() is the envelope's code (VALIDATION_ERROR, NOT_FOUND, ...), getStatus() the HTTP
 * status (also PHP's getCode()), getMessage() the API's message, getDetails() its details (one
 * ErrorDetail per invalid field, parameter or header; empty when the error is about no one field)
 * and getRequestId() the X-Request-Id to quote when
 * reporting a problem. Each code has its own subclass; catch this class for any of them.
 */
class ApiException extends \RuntimeException implements StoreApiException
{
    /** @var list<ErrorDetail> one per invalid field, parameter or header; empty when the error is about no one field */
    public readonly array $details;

    /** The subclass for each error code of the API. */
    public const CLASSES = [
        'INVALID_REQUEST' => InvalidRequestException::class,
        'VALIDATION_ERROR' => ValidationException::class,
        'AUTHENTICATION_ERROR' => AuthenticationException::class,
        'AUTHORIZATION_ERROR' => AuthorizationException::class,
        'NOT_FOUND' => NotFoundException::class,
        'CONFLICT' => ConflictException::class,
        'RATE_LIMITED' => RateLimitedException::class,
        'INTERNAL_ERROR' => InternalErrorException::class,
    ];

    /** The code for an answer without an error envelope (a proxy's page, say), by HTTP status. */
    private const CODE_BY_STATUS = [
        400 => 'INVALID_REQUEST',
        401 => 'AUTHENTICATION_ERROR',
        403 => 'AUTHORIZATION_ERROR',
        404 => 'NOT_FOUND',
        409 => 'CONFLICT',
        413 => 'INVALID_REQUEST',
        415 => 'INVALID_REQUEST',
        422 => 'VALIDATION_ERROR',
        429 => 'RATE_LIMITED',
    ];

    /**
     * @param mixed $details the envelope's `details`: a list of ErrorDetail or of their arrays, or 2026-11-20's one
     *     `{field, issue}` array (read as a list of one; see ErrorDetail::listFrom)
     * @param array<string, string> $headers the answer's headers, lowercase names
     */
    public function __construct(
        public readonly string $errorCode,
        public readonly int $status,
        string $message,
        mixed $details = [],
        public readonly ?string $requestId = null,
        public readonly array $headers = [],
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, $status, $previous);
        $this->details = ErrorDetail::listFrom($details);
    }

    /**
     * The exception for an error answer: the subclass of its code (from the envelope, else from the
     * status), with message, details and the X-Request-Id.
     *
     * @param array<string, string|list<string>> $headers any case
     */
    public static function fromResponse(int $status, array $headers, string $body): self
    {
        $lower = [];
        foreach ($headers as $name => $value) {
            $lower[strtolower((string) $name)] = is_array($value) ? implode(', ', $value) : (string) $value;
        }
        $decoded = json_decode($body, true);
        $error = is_array($decoded) && is_array($decoded['error'] ?? null) ? $decoded['error'] : null;
        $code = is_string($error['code'] ?? null) && $error['code'] !== '' ? $error['code'] : self::codeForStatus($status);
        $message = is_string($error['message'] ?? null) ? $error['message'] : self::fallbackMessage($status, $body);
        $details = $error['details'] ?? [];
        $requestId = $lower['x-request-id'] ?? null;
        $class = self::CLASSES[$code] ?? self::class;
        if ($class === RateLimitedException::class) {
            $retryAfter = \StoreApi\Client::parseRetryAfter($lower['retry-after'] ?? null);
            return new RateLimitedException($code, $status, $message, $details, $requestId, $lower, null, $retryAfter === null ? null : (int) ceil($retryAfter));
        }
        return new $class($code, $status, $message, $details, $requestId, $lower);
    }

    private static function codeForStatus(int $status): string
    {
        return self::CODE_BY_STATUS[$status] ?? ($status >= 500 ? 'INTERNAL_ERROR' : 'HTTP_' . $status);
    }

    private static function fallbackMessage(int $status, string $body): string
    {
        $text = trim(preg_replace('/\s+/', ' ', strip_tags($body)) ?? '');
        return 'HTTP ' . $status . ($text !== '' ? ': ' . substr($text, 0, 200) : '');
    }

    /** The API's error code: VALIDATION_ERROR, NOT_FOUND, ... (PHP's getCode() is the HTTP status). */
    public function getErrorCode(): string
    {
        return $this->errorCode;
    }

    public function getStatus(): int
    {
        return $this->status;
    }

    /** @return list<ErrorDetail> one per invalid field, parameter or header; empty when the error is about no one field */
    public function getDetails(): array
    {
        return $this->details;
    }

    /** The X-Request-Id of the answer: quote it when reporting a problem. */
    public function getRequestId(): ?string
    {
        return $this->requestId;
    }

    /** @return array<string, string> the answer's headers, lowercase names */
    public function getHeaders(): array
    {
        return $this->headers;
    }
}
