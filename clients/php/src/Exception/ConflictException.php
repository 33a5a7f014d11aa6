<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/** CONFLICT (409): the state does not allow it; read again and retry. */
class ConflictException extends ApiException
{
}
