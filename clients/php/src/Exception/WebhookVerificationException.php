<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/** A webhook delivery that does not verify, or whose body is not an event: answer 400. */
class WebhookVerificationException extends \UnexpectedValueException implements StoreApiException
{
}
