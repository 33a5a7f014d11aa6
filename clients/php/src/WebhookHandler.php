<?php

declare(strict_types=1);

namespace StoreApi;

use StoreApi\Exception\WebhookVerificationException;
use StoreApi\Generated\Events;

/**
 * Dispatches verified webhook deliveries to the function registered for their kind.
 *
 *     $hooks = new StoreApi\WebhookHandler($secret);
 *     $hooks->on('order.placed', function (array $event): void { ... $event['data']['orderNumber'] ... });
 *     http_response_code($hooks->handle(file_get_contents('php://input'), getallheaders()));
 *
 * handle() returns the status to answer: 400 for a delivery that does not verify, 200 once the kind's
 * function ran (and for a kind with none, such as one added to the store later). An exception from a
 * function propagates, so the request fails with 500 and the store retries the delivery. Deduplicate
 * on `X-Store-Delivery` inside your functions: a delivery can come twice.
 *
 * @phpstan-import-type StoreEvent from Events
 */
final class WebhookHandler
{
    /** @var array<string, callable(array<string, mixed>): mixed> */
    private array $handlers = [];

    /** @param string|list<string> $secret the endpoint's secret; during a rotation the new and the old one */
    public function __construct(private readonly string|array $secret, private readonly int $tolerance = Webhook::DEFAULT_TOLERANCE)
    {
    }

    /**
     * Registers $handler for events of $kind (one of Events::TYPES); it gets the decoded event.
     *
     * @param callable(array<string, mixed>): mixed $handler
     */
    public function on(string $kind, callable $handler): self
    {
        if (!in_array($kind, Events::TYPES, true)) {
            throw new \InvalidArgumentException("unknown event kind '$kind': one of " . implode(', ', Events::TYPES));
        }
        $this->handlers[$kind] = $handler;
        return $this;
    }

    /**
     * Verifies the delivery, runs its kind's function, and returns the HTTP status to answer.
     *
     * @param array<string, string|list<string>> $headers
     */
    public function handle(string $body, array $headers): int
    {
        try {
            $event = Webhook::constructEvent($body, $headers, $this->secret, $this->tolerance);
        } catch (WebhookVerificationException) {
            return 400;
        }
        $handler = $this->handlers[$event['event']] ?? null;
        if ($handler !== null) {
            $handler($event);
        }
        return 200;
    }
}
