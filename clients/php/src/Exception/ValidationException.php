<?php

declare(strict_types=1);

namespace StoreApi\Exception;

/** VALIDATION_ERROR (422): invalid fields; getDetails() lists every one. */
class ValidationException extends ApiException
{
}
