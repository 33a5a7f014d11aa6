<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/** Every exception the client throws for an API call implements this: catch it to catch them all. */
interface StoreApiException extends \Throwable
{
}
