<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/** NOT_FOUND (404): no such resource, or not yours. */
class NotFoundException extends ApiException
{
}
