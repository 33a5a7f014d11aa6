<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/** INTERNAL_ERROR (500): a server bug; quote getRequestId(). */
class InternalErrorException extends ApiException
{
}
