<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/** INVALID_REQUEST (400, 413, 415): a malformed request. */
class InvalidRequestException extends ApiException
{
}
